import CraveyLibrary
import CraveyRecorder
import TerminalKit

/// Recording a message: the take (the camera's preview where it fits), listening back, then on a
/// terminal the details and Save or Discard; a saved recording's transcript is started or queued.
/// What `cravey record` and the screens' record keys all run.
enum RecordFlow {
    /// What a recording saved from a screen says.
    static let savedNote = "Recording saved ✓"

    /// From a screen (home's `r`, the recordings screen's `n`): the session's microphone and
    /// speaker, nothing typed. What happened, in the screen's note for it.
    static func fromScreen(_ kind: Recording.Kind, in session: Session) throws -> String {
        let plan = RecordSession.Plan(
            devices: .init(kind: kind, mic: session.mic, camera: nil, largest: nil, fallbackToAudio: false),
            mayAsk: Terminal.stdinIsTerminal)
        let recording = RecordSession(
            session, plan: plan, maxSeconds: Validation.maxDuration, draft: Library.Draft(),
            interactive: asksDetails, json: false, fromScreen: true)
        if try record(recording, countdown: 0) != nil {
            return ([savedNote] + (recording.soundLostWords.map { [$0] } ?? [])).joined(separator: "  ")
        }
        return recording.discarded ? "Recording discarded — nothing was kept." : "Nothing was recorded."
    }

    /// Whether the details are asked after recording: there is a terminal to ask on.
    static var asksDetails: Bool { Terminal.stdinIsTerminal && Terminal.stderrIsTerminal }

    /// Runs `recording`; a saved recording's transcript is started or queued.
    @discardableResult
    static func record(_ recording: RecordSession, countdown: Int) throws -> Recording? {
        try recording.run(countdown: countdown)
        Transcribing.afterSave(recording.library, saved: recording.saved, quiet: recording.json)
        return recording.saved
    }
}
