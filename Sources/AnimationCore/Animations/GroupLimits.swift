extension Animation {
    /// How many animations a group holds, counting those inside nested
    /// groups, and how many levels of groups it has (0 for an animation
    /// that is not a group, 1 for a group of plain animations). Iterative,
    /// and it stops counting once the size is past `limit`.
    func groupMeasure(stoppingAbove limit: Int = Limits.groupSize) -> (size: Int, depth: Int) {
        guard case .group = content else { return (0, 0) }
        var size = 0, depth = 0
        var pending: [(Animation, Int)] = [(self, 1)]
        while let (a, level) = pending.popLast() {
            guard case .group(let children) = a.content else { continue }
            depth = max(depth, level)
            size += children.count
            if size > limit { break }
            for c in children { if case .group = c.content { pending.append((c, level + 1)) } }
        }
        return (size, depth)
    }

    /// Throws `.outOfRange` unless a group within `Limits.groupSize` and
    /// `Limits.groupDepth` (checked where groups grow, and again when added).
    func checkGroupLimits(_ what: @autoclosure () -> String = "the group") throws(AnimrtError) {
        let (size, depth) = groupMeasure()
        if size > Limits.groupSize {
            throw AnimrtError(.outOfRange, "\(what()) would hold more than \(Limits.groupSize) animations (nested groups' included)")
        }
        if depth > Limits.groupDepth {
            throw AnimrtError(.outOfRange, "\(what()) would nest groups \(depth) deep; at most \(Limits.groupDepth) levels are allowed")
        }
    }

    /// Appends `child` to this group, within the group limits.
    public mutating func appendToGroup(_ child: Animation) throws(AnimrtError) {
        guard case .group(var children) = content else {
            throw AnimrtError(.kind, "a \(kindName) animation has no children; only a group does")
        }
        let (size, depth) = groupMeasure()
        let (childSize, childDepth) = child.groupMeasure()
        if size + 1 + childSize > Limits.groupSize {
            throw AnimrtError(.outOfRange, "the group holds \(size) animations and this child brings \(1 + childSize); a group holds at most \(Limits.groupSize), nested groups' included")
        }
        if max(depth, childDepth + 1) > Limits.groupDepth {
            throw AnimrtError(.outOfRange, "adding this child would nest groups \(childDepth + 1) deep; at most \(Limits.groupDepth) levels are allowed")
        }
        children.append(child)
        content = .group(children)
    }
}
