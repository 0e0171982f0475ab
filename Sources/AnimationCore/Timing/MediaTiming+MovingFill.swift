/// Web Animations' fills that move. WA1 clamps the active time of a fill
/// only at 0 and the active duration (`TimingModel.activeTime`), so on the
/// side playback has not reached yet a delay can leave a fill that follows
/// the local time instead of holding a frame: a negative delay leaves a play
/// forwards, filling backwards, at `local − delay` from `local = delay` up
/// to the active interval, as if it had begun there; a negative end delay
/// leaves a play backwards, filling forwards, at `local − delay` from the
/// clipped end of the active interval up to `delay + AD`. (On the side
/// playback has reached, `sample` holds the active time where it ended.)
extension MediaTiming {
    /// The local times, lower to upper (both exclusive), where a fill
    /// follows the local time, or nil.
    func movingFill(_ m: TimingModel) -> (lower: Double, upper: Double)? {
        if speed > 0 && m.fill.fillsBackwards && m.delay < m.activeStart { return (m.delay, m.activeStart) }
        let end = m.delay + m.activeDuration
        if speed < 0 && m.fill.fillsForwards && max(m.activeEnd, m.delay) < end { return (max(m.activeEnd, m.delay), end) }
        return nil
    }

    /// Whether the active time moves with the local time at `parentTime`,
    /// sampled in `phase`: inside the active interval, and in a fill that
    /// follows the local time (`movingFill`). Velocities take the rate of
    /// time there, not 0.
    func activeTimeMoves(at parentTime: Double, phase: Phase) -> Bool {
        if phase == .active { return true }
        guard speed != 0, phase == (speed > 0 ? .before : .after) else { return false }
        let m = model
        guard let (lower, upper) = movingFill(m) else { return false }
        let local = localTime(at: parentTime, model: m)
        return local > lower && local < upper
    }
}
