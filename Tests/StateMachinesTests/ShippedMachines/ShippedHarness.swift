import AnimationCore
@testable import StateMachines
import Testing

/// Shorthands for the tests of the machines that come with animrt.
extension Harness {
    /// An instance of shipped machine `name`, created at runtime time 0.
    func shipped(_ name: String, config: [String: MachineValue] = [:], locale: String? = nil,
                 strings: [String: String] = [:]) throws(AnimrtError) -> Handle {
        if runtime.currentTime == nil { tick(0) }
        return try host.create(try host.load(named: name), options: .init(config: config, locale: locale, strings: strings))
    }

    func layer(_ m: Handle, _ part: String) -> Handle { try! host.part(part, of: m) }

    /// A scalar presentation value (what is on screen as of the last tick).
    func shown(_ m: Handle, _ part: String, _ keyPath: String) -> Double {
        try! runtime.presentationValue(forKeyPath: keyPath, of: layer(m, part)).scalar
    }

    /// A presentation value's components.
    func shownValue(_ m: Handle, _ part: String, _ keyPath: String) -> [Double] {
        try! runtime.presentationValue(forKeyPath: keyPath, of: layer(m, part)).components
    }

    func model(_ m: Handle, _ part: String, _ keyPath: String) -> Double {
        try! runtime.modelValue(forKeyPath: keyPath, of: layer(m, part)).scalar
    }

    func keys(_ m: Handle, _ part: String) -> [String] { try! runtime.animationKeys(of: layer(m, part)) }

    func text(_ m: Handle, _ field: String) -> String { context(m, field).string ?? "<\(context(m, field))>" }

    /// Ticks from `from` to `to` in steps of `step`, running `each` after every tick.
    func run(from: Double, to: Double, step: Double = 1.0 / 60, _ each: (Double) throws -> Void = { _ in }) rethrows {
        var t = from
        while t <= to + 1e-9 {
            tick(t)
            try each(t)
            t += step
        }
    }

    /// Ticks in small steps, from `from` or the last tick if later, until
    /// `m` is in `state` (or `limit` seconds pass); returns the time.
    @discardableResult
    func until(_ m: Handle, _ state: String, from: Double, limit: Double = 10, step: Double = 0.01) -> Double {
        var t = max(from, runtime.currentTime ?? 0)
        while t < from + limit {
            tick(t)
            if self.state(m) == state { return t }
            t += step
        }
        Issue.record("\(self.state(m)) never reached \(state)")
        return t
    }
}
