extension Runtime {
    // MARK: Animation descriptions

    /// Stores an animation description under a handle (for hosts that build
    /// animations step by step, as the C ABI does).
    public func createAnimation(_ a: Animation) throws(AnimrtError) -> Handle {
        if let path = a.keyPath { _ = try properties.resolve(path) }
        return try definitions.insert(a)
    }

    public func animation(_ h: Handle) throws(AnimrtError) -> Animation { definitions[try definitions.index(of: h)] }

    /// Changes a stored description; the change is kept only if `body`
    /// does not throw (no half-applied change).
    public func updateAnimation(_ h: Handle, _ body: (inout Animation) throws(AnimrtError) -> Void) throws(AnimrtError) {
        if h.kindBits == HandleKind.instance.rawValue {
            _ = try instances.index(of: h)
            throw AnimrtError(.handle, "\(h) is an attached animation: the attached copy is read-only (Core Animation leaves changes to it undefined); change a description and add it again")
        }
        let i = try definitions.index(of: h)
        var copy = definitions[i]
        try body(&copy)
        definitions[i] = copy
    }

    /// Destroys a description. Attached copies keep running.
    public func destroyAnimation(_ h: Handle) throws(AnimrtError) { definitions.remove(at: try definitions.index(of: h)) }

    /// Adds the stored description `h` to `layer` (see `add(_:to:forKey:joining:)`).
    @discardableResult
    public func addAnimation(_ h: Handle, to layer: Handle, forKey key: String?, joining barrier: Handle? = nil) throws(AnimrtError) -> Handle {
        _ = try layers.index(of: layer)
        let a = definitions[try definitions.index(of: h)]
        return try add(a, to: layer, forKey: key, joining: barrier, definition: h)
    }
}
