import AnimationCore
@testable import StateMachines
import Testing

/// A runtime with a machine host, a `log` function that records what
/// definitions call it with, and shorthands for the tests.
final class Harness: @unchecked Sendable {
    let runtime = Runtime()
    let host: MachineHost
    private(set) var log: [String] = []

    init() {
        host = MachineHost(runtime: runtime)
        try! host.functions.register(MachineFunction(name: "log", parameters: [.string], result: nil) { [unowned self] args in
            self.log.append(args[0].string!)
            return nil
        })
    }

    func clearLog() { log.removeAll() }

    func load(_ json: String) throws(AnimrtError) -> MachineDefinition {
        try host.definition(try host.load(json))
    }

    func machine(_ json: String, config: [String: MachineValue] = [:], parent: Handle? = nil) throws(AnimrtError) -> Handle {
        try host.create(try host.load(json), parent: parent, options: .init(config: config))
    }

    @discardableResult
    func send(_ m: Handle, _ event: String, _ payload: [TaggedValue] = []) throws(AnimrtError) -> SendOutcome {
        let d = try host.definition(of: m)
        guard let e = d.eventID(event) else { throw AnimrtError(.notFound, "test: no event \(event)") }
        return try host.send(m, event: e, payload: payload)
    }

    func state(_ m: Handle) -> String {
        let d = try! host.definition(of: m)
        return d.states[try! host.state(of: m)].name
    }

    func context(_ m: Handle, _ field: String) -> MachineValue {
        let d = try! host.definition(of: m)
        return try! host.context(d.contextID(field)!, of: m)
    }

    func tick(_ t: Double) { try! runtime.tick(t) }

    /// Every queued event, oldest first.
    func events() -> [Event] {
        var out: [Event] = []
        while let e = runtime.pollEvent() { out.append(e) }
        return out
    }

    /// Queued events of machines, described ("state a -> b", "emit x", …).
    func machineEvents(_ m: Handle) -> [String] {
        let d = try! host.definition(of: m)
        return events().compactMap { e -> String? in
            guard e.object == m else { return nil }
            switch e.type {
            case .machineStateChanged:
                return "state \(e.fromState < 0 ? "-" : d.states[Int(e.fromState)].name) -> \(d.states[Int(e.toState)].name)"
            case .machineEmitted: return "emit \(d.emits[Int(e.name)].name)\(e.payload.isEmpty ? "" : " \(e.payload)")"
            case .machineRequest: return "request \(d.requests[Int(e.name)].name) #\(e.token)"
            case .machineStaleResult: return "stale \(d.events[Int(e.name)].name) #\(e.token)"
            case .machineError: return "error \(e.payload.first.map { "\($0)" } ?? "")"
            default: return nil
            }
        }
    }
}

/// A definition with `body` added to the minimal fields.
func definition(_ body: String) -> String { body }

/// Expects `body` to throw an `AnimrtError` with `status` whose message
/// contains every fragment; returns the message.
@discardableResult
func expectError(_ status: Status, _ fragments: [String], sourceLocation: SourceLocation = #_sourceLocation,
                 _ body: () throws(AnimrtError) -> Void) -> String {
    do throws(AnimrtError) {
        try body()
        Issue.record("expected \(status.name) containing \(fragments), but nothing was thrown", sourceLocation: sourceLocation)
        return ""
    } catch {
        #expect(error.status == status, "\(error.message)", sourceLocation: sourceLocation)
        for f in fragments {
            #expect(error.message.contains(f), "'\(f)' not in: \(error.message)", sourceLocation: sourceLocation)
        }
        return error.message
    }
}
