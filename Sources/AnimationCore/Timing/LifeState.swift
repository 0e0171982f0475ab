/// Lifecycle of an attached animation: which of its events were sent
/// (none, started, stopped as finished); the ABI's `animrt_lifecycle`. It
/// only moves forwards, even when a layer's time turns back.
public enum LifeState: UInt8, CaseIterable, Sendable {
    case waiting = 0, running = 1, ended = 2
}

extension MediaTiming {
    /// The timing sample and the lifecycle state at `parentTime`, computing
    /// the model once (twice past either end of the active interval).
    /// Paused (speed 0), an animation runs from the start on and never ends,
    /// unless it is held before a delay: its local time stays at 0, so
    /// playback never reaches its active interval and it never starts.
    ///
    /// It ends where a Web Animations animation finishes: when playback
    /// reaches the end of its local time line, the end time forwards (a
    /// positive endDelay keeps it running, its fill showing, past its active
    /// interval) and 0 backwards (a start delay does the same on that side),
    /// not where its active interval ends. A play that starts at its end
    /// time backwards waits through the endDelay already, as it waits
    /// through a delay forwards.
    func sampleAndState(at parentTime: Double) -> (TimingSample, LifeState) {
        let s = sample(at: parentTime)
        let state: LifeState
        if speed == 0 { state = s.phase == .before ? .waiting : .running }
        else {
            // The phase playback has not reached yet: before forwards, after backwards.
            let notYet: Phase = speed > 0 ? .before : .after
            state = s.phase == notYet ? .waiting : s.phase == .active || !reachedEnd(parentTime) ? .running : .ended
        }
        return (s, state)
    }

    /// Whether playback has reached the end of its local time line at
    /// `parentTime` (speed ≠ 0): the end time forwards, 0 backwards.
    private func reachedEnd(_ parentTime: Double) -> Bool {
        let m = model, local = localTime(at: parentTime, model: m)
        return speed > 0 ? local >= m.endTime : local <= 0
    }

    /// True when the timing is "play once from beginTime at speed 1", the
    /// case the batch evaluates inline.
    var isSimple: Bool {
        speed == 1 && timeOffset == 0 && (repeatCount == 0 || repeatCount == 1) && repeatDuration == 0
            && !autoreverses && iterationStart == 0 && endDelay == 0 && direction == .normal && delay == 0
            && (iterations == nil || iterations == 1) && (iterationDuration ?? 1) > 0
    }
}
