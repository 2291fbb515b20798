import ArgumentParser
import CraveyLibrary
import CraveyMessages
import Foundation
import TerminalKit

extension Cravey.CheckInCommand {
    /// `cravey checkin list`: the entries, newest day first.
    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "list",
            abstract: "List the check-ins, newest first: date, mood, length, first words.")

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            guard let lib = try library.existing() else {
                print(output.json ? "[]" : Self.noneYet)
                return
            }
            let entries = try lib.checkIns()
            if output.json {
                print(RecordingExport.jsonArray(entries))
                return
            }
            if entries.isEmpty {
                print(Self.noneYet)
                return
            }
            print(
                Terminal.dim(
                    Terminal.fit("DATE", 28) + Terminal.fit("MOOD", 9) + Terminal.fit("LENGTH", 8) + "FIRST WORDS"))
            let width = max(12, Terminal.columns - 46)
            let transcripts = try lib.allTranscripts()
            let queued = Transcribing.onItsWay(in: lib)
            for entry in entries {
                guard let checkIn = entry.checkIn else { continue }
                print(
                    Terminal.fit(CheckIn.displayDay(checkIn.day) + " " + checkIn.day.prefix(4), 28)
                        + Mood.colored(checkIn.mood, Terminal.fit(checkIn.mood.label, 9))
                        + Terminal.fit(Format.duration(entry.duration), 8)
                        + Self.firstWords(transcripts[entry.id], width: width, queued: queued.contains(entry.id)))
            }
        }

        /// The empty state: no check-in yet (or no library yet).
        static let noneYet = "No check-ins yet. 'cravey checkin' takes less than a minute."

        /// The start of the transcript, or why there is none (dim).
        static func firstWords(_ transcript: Transcript?, width: Int, queued: Bool = false) -> String {
            if queued && transcript?.state != .done { return Terminal.dim("transcript on its way") }
            guard let transcript else { return Terminal.dim("transcript not made yet") }
            guard transcript.state == .done else { return Terminal.dim("transcript unavailable") }
            guard !transcript.words.isEmpty else { return Terminal.dim("(no speech heard)") }
            return Terminal.fit(Terminal.safe(transcript.text.replacingOccurrences(of: "\n", with: " ")), width)
        }
    }

    /// `cravey checkin show DATE`.
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show",
            abstract: "Show one day's check-in.")

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        @Argument(help: ArgumentHelp("The day (YYYY-MM-DD), or 'today'.", valueName: "date"))
        var date: String

        func run() throws {
            let lib = try library.openExisting()
            let entry = try Self.entry(date, in: lib)
            let transcript = try lib.transcript(of: entry.id)
            if output.json {
                try JSONOutput.print(RecordingDetail(entry, transcript: transcript))
                return
            }
            let checkIn = entry.checkIn!
            var lines = [
                Terminal.bold("Check-in of \(CheckIn.displayDay(checkIn.day)) \(checkIn.day.prefix(4))"),
                "  mood       " + Mood.colored(checkIn.mood, checkIn.mood.label),
                "  question   " + Terminal.safe(checkIn.prompt ?? "—"),
                "  length     \(Format.duration(entry.duration)) (\(String(format: "%.3f", entry.duration)) s)",
                "  recorded   \(Validation.displayDate(entry.createdAt))",
                "  id         \(entry.id.uuidString)",
            ]
            if let loudness = TranscriptWords.loudness(entry) { lines.append("  loudness   " + loudness) }
            if !entry.media.waveform.isEmpty {
                lines.append("  " + Terminal.dim(Format.sparkline(entry.media.waveform, columns: 60)))
            }
            lines += TranscriptWords.lines(
                transcript, id: entry.id, queued: Transcribing.onItsWay(entry.id, in: lib))
            print(lines.joined(separator: "\n"))
        }

        /// The entry of `date` ("today" or YYYY-MM-DD), or a one-line error.
        static func entry(_ date: String, in library: Library) throws -> Recording {
            let today = CheckIn.day(of: LocalClock.now())
            let day = date.lowercased() == "today" ? today : try Validation.checkInDay(date, today: today)
            guard let entry = try library.checkIn(on: day) else {
                throw CraveyFailure(message: "no check-in on \(day)")
            }
            return entry
        }
    }

    /// `cravey checkin play DATE`: plays a day's entry (not counted: check-ins are not ranked).
    struct Play: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "play",
            abstract: "Play one day's check-in.")

        @OptionGroup var library: LibraryOptions

        @Argument(help: ArgumentHelp("The day (YYYY-MM-DD), or 'today'.", valueName: "date"))
        var date: String

        @Option(help: ArgumentHelp("ALSA playback device.", valueName: "name"))
        var speaker: String = "default"

        @Flag(help: "Play at the level it was recorded at.")
        var originalLevel = false

        func run() throws {
            let lib = try library.openExisting()
            let entry = try Show.entry(date, in: lib)
            let session = try PlaySession.open(
                entry, in: lib, title: "Check-in \(CheckIn.displayDay(entry.checkIn?.day ?? ""))",
                what: "the check-in of \(entry.checkIn?.day ?? date)", speaker: speaker,
                originalLevel: originalLevel)
            let played = MessagePlay.play(entry, in: lib, on: session.player, clock: LocalClock.now) {
                session.run(handlingSignals: true)
            }
            if !Terminal.stdoutIsTerminal {
                print(
                    "\(played.ending == .finished ? "Played" : "Stopped") the check-in of \(entry.checkIn?.day ?? date) (\(Format.duration(entry.duration)))"
                )
            }
        }
    }
}
