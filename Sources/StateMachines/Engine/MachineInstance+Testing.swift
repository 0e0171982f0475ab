import AnimationCore

extension MachineHost {
    /// Test hook: puts instance `h` in leaf state `target` as if a transition
    /// from the top level had led there (exits run, then entries), and opens
    /// a request with id `request` for every operation, so that a result
    /// event can be walked in any state.
    func place(_ h: Handle, in target: Int, openRequests request: UInt64? = nil) throws(AnimrtError) {
        let m = try live(h)
        m.busy = true
        var s = m.leaf
        while s >= 0 { m.exit(s); s = m.definition.states[s].parent }
        for a in m.definition.ancestry(target).reversed() { m.enter(a) }
        m.leaf = target
        m.finished = m.definition.states[target].kind == .final && m.definition.states[target].parent == -1
        m.internalQueue.removeAll(); m.internalHead = 0
        if let request { for op in m.requests.indices { m.requests[op] = (request, true) } }
        m.busy = false
    }
}
