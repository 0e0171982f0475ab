/// Other toolkits' names for what a key path animates here.
///
/// A program coming from UIKit, CSS or a game engine reaches for `alpha`,
/// `center`, `rotate` or `bounds.width`; spelling alone would answer
/// `alpha` with nothing and `bounds.width` with `borderWidth`. Each name
/// here is answered with the key path it stands for. A property the host
/// defines under one of these names is its own and resolves as usual.
extension PropertyRegistry {
    static let habits: [String: String] = [
        "alpha": "did you mean 'opacity'? (UIKit's alpha)",
        "center": "did you mean 'position'? (UIKit's center: where the layer's anchorPoint is)",
        "frame": "a layer has no frame: animate 'position' and 'bounds.size' (or 'bounds')",
        "x": "did you mean 'position.x'?",
        "y": "did you mean 'position.y'?",
        "z": "did you mean 'zPosition'?",
        "position.z": "did you mean 'zPosition'?",
        "width": "did you mean 'bounds.size.width'?",
        "height": "did you mean 'bounds.size.height'?",
        "size": "did you mean 'bounds.size'?",
        "bounds.width": "did you mean 'bounds.size.width'?",
        "bounds.height": "did you mean 'bounds.size.height'?",
        "rotation": "did you mean 'transform.rotation.z'? (in radians)",
        "rotate": "did you mean 'transform.rotation.z'? (in radians)",
        "rotationZ": "did you mean 'transform.rotation.z'? (in radians)",
        "transform.rotate": "did you mean 'transform.rotation.z'? (in radians)",
        "scale": "did you mean 'transform.scale'?",
        "scaleX": "did you mean 'transform.scale.x'?",
        "scaleY": "did you mean 'transform.scale.y'?",
        "transform.scaleX": "did you mean 'transform.scale.x'?",
        "transform.scaleY": "did you mean 'transform.scale.y'?",
        "translate": "did you mean 'transform.translation'?",
        "translation": "did you mean 'transform.translation'?",
        "translateX": "did you mean 'transform.translation.x'?",
        "translateY": "did you mean 'transform.translation.y'?",
        "translationX": "did you mean 'transform.translation.x'?",
        "translationY": "did you mean 'transform.translation.y'?",
        "transform.translateX": "did you mean 'transform.translation.x'?",
        "transform.translateY": "did you mean 'transform.translation.y'?",
        "zIndex": "did you mean 'zPosition'?",
        "z-index": "did you mean 'zPosition'?",
    ]
}
