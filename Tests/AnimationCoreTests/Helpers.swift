import Testing
@testable import AnimationCore

extension Runtime {
    /// Drains the event queue.
    func drain() -> [Event] {
        var out: [Event] = []
        while let e = pollEvent() { out.append(e) }
        return out
    }

    func scalar(_ path: String, _ layer: Handle) throws -> Double {
        try presentationValue(forKeyPath: path, of: layer).scalar
    }
}

extension Event {
    /// A compact description for assertions: "started", "stopped:replaced", …
    var tag: String {
        switch type {
        case .animationStarted: "started"
        case .animationStopped: "stopped:\(reason)"
        case .barrierNotified: "notified:\(token)"
        case .transactionCompleted: "transaction:\(token)"
        case .timerFired: "timer:\(token)"
        case .overflow: "overflow:\(token)"
        case .machineStateChanged: "state:\(fromState)->\(toState)"
        case .machineEmitted: "emitted:\(name)"
        case .machineRequest: "request:\(name)#\(token)"
        case .machineStaleResult: "stale:\(name)#\(token)"
        case .machineError: "error:\(payload)"
        }
    }
}

func linear(_ path: String, _ from: Double, _ to: Double, begin: Double = 0, duration: Double = 1,
            fill: FillMode = .removed) -> Animation {
    .basic(path, from: .scalar(from), to: .scalar(to), timing: MediaTiming(beginTime: begin, duration: duration, fillMode: fill))
}

/// Expects `body` to fail with `status`, with every fragment in the message;
/// returns the error. (A body that does not throw is a recorded failure.)
@discardableResult
func expectFailure(_ status: Status, containing fragments: String..., sourceLocation: SourceLocation = #_sourceLocation,
                   _ body: () throws -> Void) -> AnimrtError? {
    let error = #expect(throws: AnimrtError.self, sourceLocation: sourceLocation) { try body() }
    guard let error else { return nil }
    #expect(error.status == status, "\(error)", sourceLocation: sourceLocation)
    for f in fragments { #expect(error.message.contains(f), "'\(error.message)' lacks '\(f)'", sourceLocation: sourceLocation) }
    return error
}

/// Expects `body` to fail with `status` and exactly `message`.
@discardableResult
func expectFailure(_ status: Status, exactly message: String, sourceLocation: SourceLocation = #_sourceLocation,
                   _ body: () throws -> Void) -> AnimrtError? {
    let error = expectFailure(status, sourceLocation: sourceLocation, body)
    #expect(error?.message == message, "\(error?.message ?? "")", sourceLocation: sourceLocation)
    return error
}
