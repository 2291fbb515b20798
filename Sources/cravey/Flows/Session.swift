import CraveyLibrary
import Foundation

/// What a command hands the screens and flows it starts, made once where the command starts: the
/// open library, the devices chosen for this run, the run's configuration and its clock. Screens
/// and flows take everything they need from it, and nothing from the environment.
struct Session: Sendable {
    /// The library, open.
    let library: Library
    /// The library's directory, as chosen.
    let root: String
    /// The ALSA capture device recordings and check-ins are made from.
    var mic = "default"
    /// The ALSA playback device messages are played on.
    var speaker = "default"
    /// This run's configuration, read once when cravey started.
    let configuration: Configuration

    /// The person's "now", by the run's one clock (`LocalClock`): every log, day, greeting and
    /// note of a session goes by it.
    func now() -> Date { LocalClock.now() }
}
