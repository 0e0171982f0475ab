/// A layer property: a name, a value kind and the value a new layer has.
public struct PropertyInfo: Sendable, Equatable {
    public let name: String
    public let kind: ValueKind
    public let defaultValue: AnimatableValue
}

/// The part of a transform a key path like `transform.rotation.z` addresses.
public enum TransformPart: Hashable, Sendable {
    case rotation(Int)
    case scale(Int)
    /// `transform.scale`: reads the average of x, y and z, writes all three.
    case uniformScale
    case translation(Int)
    /// `transform.translation`: a size (x, y).
    case translationXY
}

/// How a key path reaches into its property's value.
public enum KeyPathAccess: Hashable, Sendable {
    /// The whole value.
    case whole
    /// `count` consecutive components from `first` (position.x, bounds.size).
    case components(first: Int, count: Int)
    /// A part of a transform's decomposition.
    case transformPart(TransformPart)
}

/// A resolved key path: which property, which part of it, what kind.
public struct KeyPath: Hashable, Sendable {
    public let property: Int32
    public let access: KeyPathAccess
    public let kind: ValueKind
    public let name: String

    /// The sub-value of `whole` this key path addresses.
    public func get(_ whole: AnimatableValue) -> AnimatableValue {
        switch access {
        case .whole: return whole
        case .components(let first, let count):
            var lanes = SIMD16<Double>()
            for i in 0..<count { lanes[i] = whole.lanes[first + i] }
            return AnimatableValue(kind: kind, lanes: lanes)
        case .transformPart(let part):
            let c = TransformComponents.approximating(whole.transform)
            // Finite matrices can still decompose to an overflowing scale:
            // what a key path reads is always finite (NaN reads as 0).
            let f = { (v: Double) in presentable(v, fallback: 0) }
            switch part {
            case .rotation(let i): return .scalar(f(c.rotation[i]))
            case .scale(let i): return .scalar(f(c.scale[i]))
            case .uniformScale:
                // Core Animation: "the average of all three scale factors"
                // (a uniform scale reads back exactly; each third apart, so
                // that large factors cannot overflow the sum).
                let s = c.scale
                return .scalar(f(s[0] == s[1] && s[1] == s[2] ? s[0] : s[0] / 3 + s[1] / 3 + s[2] / 3))
            case .translation(let i): return .scalar(f(c.translation[i]))
            case .translationXY: return .size(f(c.translation[0]), f(c.translation[1]))
            }
        }
    }

    /// `whole` with the addressed part replaced by `part`.
    public func set(_ part: AnimatableValue, in whole: AnimatableValue) -> AnimatableValue {
        switch access {
        case .whole: return part
        case .components(let first, let count):
            var w = whole
            for i in 0..<count { w.lanes[first + i] = part.lanes[i] }
            return w
        case .transformPart(let p):
            var c = TransformComponents.approximating(whole.transform)
            let v = part.lanes[0]
            switch p {
            case .rotation(let i): c.rotation[i] = v
            case .scale(let i): c.scale[i] = v
            case .uniformScale: c.scale = [v, v, v]
            case .translation(let i): c.translation[i] = v
            case .translationXY: c.translation[0] = v; c.translation[1] = part.lanes[1]
            }
            return .transform(c.matrix)
        }
    }

    /// Where the value lies in its property's components, when it is a plain
    /// run of them (a copy reads it); nil for computed parts of a transform.
    public var plainComponents: (first: Int, count: Int)? {
        switch access {
        case .whole: return (0, kind.componentCount)
        case .components(let first, let count): return (first, count)
        case .transformPart: return nil
        }
    }

    /// For a key path that is one plain component: its index in the property.
    public var componentIndex: Int? {
        guard let p = plainComponents, p.count == 1 else { return nil }
        return p.first
    }

    /// The key path of component `index` of `property` (the batch keeps
    /// only the component; this rebuilds the key path from it).
    static func component(_ index: Int, of property: Int32, _ info: PropertyInfo) -> KeyPath {
        if info.kind == .scalar { return KeyPath(property: property, access: .whole, kind: .scalar, name: info.name) }
        let access = KeyPathAccess.components(first: index, count: 1)
        let sub = PropertyRegistry.subPaths(of: info).first { $0.1 == access }.map { "." + $0.0 } ?? ""
        return KeyPath(property: property, access: access, kind: .scalar, name: info.name + sub)
    }
}

/// The properties a runtime knows: Core Animation's animatable layer
/// properties, then the host's own (`define`).
public struct PropertyRegistry: Sendable {
    public private(set) var properties: [PropertyInfo] = []
    /// Each property's initial value (the same as `properties[i].defaultValue`,
    /// kept apart so that reading it copies no name).
    public private(set) var defaults: [AnimatableValue] = []
    private var byName: [String: Int32] = [:]
    private var cache: [String: KeyPath] = [:]
    /// Every key path the registry accepts (for suggestions and docs),
    /// kept up to date by `define` so that an error can hold it cheaply.
    public private(set) var knownKeyPaths: [String] = []

    /// A registry of the built-in properties; registries share its storage
    /// (every built-in key path already resolved) until one defines a
    /// property or resolves a key path of its own: a runtime is cheap to create.
    public init() { self = PropertyRegistry.standard }

    private static let standard: PropertyRegistry = {
        var r = PropertyRegistry(empty: ())
        let black = AnimatableValue.color(0, 0, 0, 1)
        let builtins: [(String, AnimatableValue)] = [
            ("position", .point(0, 0)), ("bounds", .rect(0, 0, 0, 0)), ("transform", .transform(.identity)),
            ("opacity", .scalar(1)), ("backgroundColor", .color(0, 0, 0, 0)), ("borderWidth", .scalar(0)),
            ("borderColor", black), ("cornerRadius", .scalar(0)), ("strokeStart", .scalar(0)),
            ("strokeEnd", .scalar(1)), ("lineWidth", .scalar(1)), ("strokeColor", black),
            ("anchorPoint", .point(0.5, 0.5)), ("zPosition", .scalar(0)),
        ]
        for (name, value) in builtins { try! r.define(name, default: value) }
        for path in r.knownKeyPaths { _ = try! r.resolve(path) }
        return r
    }()

    private init(empty: ()) {}

    /// What a key path that nothing is close to is answered with: the
    /// built-in properties (their parts follow a dot) and how a host adds its own.
    private static let nothingClose =
        " (built-in properties: \(standard.properties.map(\.name).sorted().joined(separator: ", ")); "
        + "define host properties with animrt_property_define)"

    /// Adds a host-defined property (any kind) with its initial value.
    @discardableResult
    public mutating func define(_ name: String, default value: AnimatableValue) throws(AnimrtError) -> Int32 {
        try requireNameLength(name, "property name")
        guard !name.isEmpty, !name.contains("."), name.unicodeScalars.allSatisfy({ $0.value > 32 }) else {
            throw AnimrtError(.invalidArgument, "property name '\(name)' must be non-empty, without dots or spaces")
        }
        guard byName[name] == nil else {
            if PropertyRegistry.standard.byName[name] != nil {
                throw AnimrtError(.exists, "'\(name)' is a built-in property; define yours under another name")
            }
            throw AnimrtError(.exists, "property '\(name)' is already defined")
        }
        guard properties.count < Limits.properties else {
            throw AnimrtError(.outOfRange, "cannot define '\(name)': a runtime holds at most \(Limits.properties) properties (built-in ones included)")
        }
        for c in 0..<value.kind.componentCount { try requireFinite(value.lanes[c], "component \(c) of the initial value of '\(name)'") }
        let id = Int32(properties.count)
        let info = PropertyInfo(name: name, kind: value.kind, defaultValue: value)
        properties.append(info)
        defaults.append(value)
        byName[name] = id
        knownKeyPaths.append(name)
        knownKeyPaths += Self.subPaths(of: info).map { name + "." + $0.0 }
        return id
    }

    public func info(_ property: Int32) -> PropertyInfo { properties[Int(property)] }

    static func subPaths(of p: PropertyInfo) -> [(String, KeyPathAccess, ValueKind)] {
        let c = { (first: Int, count: Int) in KeyPathAccess.components(first: first, count: count) }
        switch p.kind {
        case .point: return [("x", c(0, 1), .scalar), ("y", c(1, 1), .scalar)]
        case .size: return [("width", c(0, 1), .scalar), ("height", c(1, 1), .scalar)]
        case .rect:
            return [("origin", c(0, 2), .point), ("origin.x", c(0, 1), .scalar), ("origin.y", c(1, 1), .scalar),
                    ("size", c(2, 2), .size), ("size.width", c(2, 1), .scalar), ("size.height", c(3, 1), .scalar)]
        case .color:
            return [("red", c(0, 1), .scalar), ("green", c(1, 1), .scalar), ("blue", c(2, 1), .scalar), ("alpha", c(3, 1), .scalar)]
        case .transform:
            let t = { (part: TransformPart) in KeyPathAccess.transformPart(part) }
            return [("rotation", t(.rotation(2)), .scalar), ("rotation.x", t(.rotation(0)), .scalar),
                    ("rotation.y", t(.rotation(1)), .scalar), ("rotation.z", t(.rotation(2)), .scalar),
                    ("scale", t(.uniformScale), .scalar), ("scale.x", t(.scale(0)), .scalar),
                    ("scale.y", t(.scale(1)), .scalar), ("scale.z", t(.scale(2)), .scalar),
                    ("translation", t(.translationXY), .size), ("translation.x", t(.translation(0)), .scalar),
                    ("translation.y", t(.translation(1)), .scalar), ("translation.z", t(.translation(2)), .scalar)]
        case .scalar: return []
        }
    }

    /// An unknown part of a known property ('backgroundColor.r'): the part
    /// it begins, else the closest, else the parts there are (those it
    /// begins, if several). The whole property's name is no answer, though
    /// it is as close to the path.
    private func unknownPart(_ path: String, of head: Substring, _ id: Int32) -> AnimrtError {
        let message = "key path '\(path)' is not animatable"
        let parts = Self.subPaths(of: properties[Int(id)]).map { "\(head).\($0.0)" }
        if parts.isEmpty { return AnimrtError(.notFound, message: message + "; '\(head)' has no parts: animate it whole") }
        let begun = parts.filter { $0.hasPrefix(path) }
        if begun.count == 1 { return AnimrtError(.notFound, message: message + "; did you mean '\(begun[0])'?") }
        return AnimrtError(.notFound, message: message + unknownName(path, among: begun.isEmpty ? parts : begun, "the parts of '\(head)'"))
    }

    /// Resolves a key path: a property name, optionally followed by one of
    /// its sub-paths after a single dot ("position.x"). Anything else —
    /// an empty name, a trailing or doubled dot, an unknown name — gets
    /// `.notFound` with the key path another toolkit's name stands for
    /// (`habits`), else the closest known key path suggested (for an unknown part
    /// of a known property, the closest of its parts).
    public mutating func resolve(_ path: String) throws(AnimrtError) -> KeyPath {
        if let hit = cache[path] { return hit }
        try requireNameLength(path, "key path")
        let head: Substring, tail: Substring?
        if let dot = path.firstIndex(of: ".") { head = path[..<dot]; tail = path[path.index(after: dot)...] }
        else { head = path[...]; tail = nil }
        if let id = byName[String(head)] {
            let info = properties[Int(id)]
            var resolved: KeyPath?
            if let tail {
                if let sub = Self.subPaths(of: info).first(where: { $0.0 == tail }) {
                    resolved = KeyPath(property: id, access: sub.1, kind: sub.2, name: path)
                }
            } else {
                resolved = KeyPath(property: id, access: .whole, kind: info.kind, name: path)
            }
            if let r = resolved { cache[path] = r; return r }
        }
        if let habit = Self.habits[path] { throw AnimrtError(.notFound, "key path '\(path)' is not animatable; \(habit)") }
        if tail != nil, let id = byName[String(head)] { throw unknownPart(path, of: head, id) }
        throw AnimrtError(.notFound, "key path '\(path)' is not animatable", suggesting: path, from: knownKeyPaths,
                          otherwise: Self.nothingClose)
    }
}
