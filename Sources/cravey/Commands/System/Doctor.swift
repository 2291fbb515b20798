import ArgumentParser
import CraveyLibrary
import CraveyMedia
import CraveyMessages
import Foundation
import TerminalKit

#if canImport(Glibc)
    import Glibc
#endif

extension Cravey {
    /// `cravey doctor`: can cravey record right now, and if not, why and what to do.
    struct Doctor: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "doctor",
            abstract:
                "Check the microphone, the speaker, the camera, disk space, the library and the transcript engine, and say what to fix."
        )

        @OptionGroup var library: LibraryOptions
        @OptionGroup var output: OutputOptions

        @Option(help: ArgumentHelp("The microphone to check (ALSA name).", valueName: "name"))
        var mic: String = "default"

        @Option(help: ArgumentHelp("The speaker to check (ALSA name).", valueName: "name"))
        var speaker: String = "default"

        @Option(
            help: ArgumentHelp(
                "The camera to check (node, /dev/v4l/by-id path or name; default: the front camera).",
                valueName: "camera"))
        var camera: String?

        struct Finding: Encodable {
            var ok: Bool
            var subject: String
            var detail: String
            var fix: String?

            enum CodingKeys: String, CodingKey { case ok, subject, detail, fix }

            func encode(to encoder: Encoder) throws {
                var c = encoder.container(keyedBy: CodingKeys.self)
                try c.encode(ok, forKey: .ok)
                try c.encode(subject, forKey: .subject)
                try c.encode(detail, forKey: .detail)
                try c.encode(fix, forKey: .fix)  // null when there is nothing to do
            }
        }

        func run() throws {
            var findings = [checkMicrophone(), checkSpeaker(), checkCamera()]
            let lib = try library.open()
            findings.append(checkDisk(lib.root))
            findings.append(try checkLibrary(lib))
            findings.append(checkTranscripts())
            findings.append(checkTranscriptQueue(lib))
            findings.append(checkSnapshots(lib))
            findings.append(checkBackup(lib))
            findings = findings.map { finding in
                var finding = finding
                finding.fix = finding.fix.map(Self.namingTheNotes)
                return finding
            }
            if output.json {
                struct Result: Encodable { var ok: Bool; var findings: [Finding] }
                try JSONOutput.print(Result(ok: findings.allSatisfy(\.ok), findings: findings))
            } else {
                for f in findings {
                    print(
                        "\(f.ok ? Terminal.style("✓", "32") : Terminal.style("✗", "31")) \(Terminal.bold(f.subject)): \(f.detail)"
                    )
                    if let fix = f.fix { print("    → \(fix)") }
                }
            }
            let problems = findings.filter { !$0.ok }.count
            if problems > 0 {
                throw CraveyFailure(message: "\(problems) problem\(problems == 1 ? "" : "s") found (see above)")
            }
        }

        /// Where the device notes are read: installed with the program
        /// (`PREFIX/share/doc/cravey/udev-notes.md` beside `PREFIX/bin/cravey`), else in the source
        /// folder a built program runs from (`.build/<triple>/<configuration>/cravey`), else by name.
        static let deviceNotes: String = {
            let program =
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
                ?? CommandLine.arguments[0]
            let folder = (program as NSString).deletingLastPathComponent
            for candidate in ["../share/doc/cravey/udev-notes.md", "../../../udev-notes.md", "../../udev-notes.md"] {
                let path = ((folder + "/" + candidate) as NSString).standardizingPath
                if FileManager.default.isReadableFile(atPath: path) { return path }
            }
            return "udev-notes.md"
        }()

        /// A fix that points into the device notes, naming where they are on this machine (a
        /// character of the path that could drive the terminal shown as �).
        static func namingTheNotes(_ fix: String) -> String {
            fix.replacingOccurrences(of: "udev-notes.md", with: Terminal.safe(deviceNotes))
        }

        func checkMicrophone() -> Finding {
            let subject = "microphone '\(mic)'"
            do {
                let input = try AudioInput(device: mic)
                return Finding(
                    ok: true, subject: subject,
                    detail: "opens (\(input.sampleRate) Hz, \(input.deviceChannels) ch, \(input.formatName))")
            } catch let error as MediaError {
                let problem = DeviceProblem.microphone(mic, error)
                return Finding(ok: false, subject: subject, detail: problem.detail, fix: problem.fix)
            } catch {
                return Finding(ok: false, subject: subject, detail: "\(error)", fix: "see udev-notes.md")
            }
        }

        func checkSpeaker() -> Finding {
            let subject = "speaker '\(speaker)'"
            do {
                let output = try AudioOutput(device: speaker)
                return Finding(ok: true, subject: subject, detail: "opens (\(output.sampleRate) Hz)")
            } catch let error as MediaError {
                let problem = DeviceProblem.speaker(speaker, error)
                return Finding(ok: false, subject: subject, detail: problem.detail, fix: problem.fix)
            } catch {
                return Finding(ok: false, subject: subject, detail: "\(error)", fix: "see udev-notes.md")
            }
        }

        func checkCamera() -> Finding {
            // The camera `record` would use: the one named, else the front webcam.
            let path: String
            if let camera {
                path = camera.hasPrefix("/") ? camera : ((try? CameraInfo.find(camera))?.path ?? camera)
            } else if let front = CameraInfo.front {
                path = front.path
            } else {
                let problem = DeviceProblem.noCamera()
                return Finding(ok: false, subject: "camera", detail: problem.detail, fix: problem.fix)
            }
            let subject = "camera \(path)"
            do {
                let info = try CameraInfo(path: path)
                guard let mode = CameraMode.best(of: info.modes) else {
                    return Finding(
                        ok: false, subject: subject, detail: "offers no capture mode", fix: "see udev-notes.md")
                }
                // Streaming is where "busy" shows.
                let input = try VideoInput(path: path, mode: mode, jpeg: LibraryOptions.configuration.jpeg)
                _ = try input.next(timeout: 2)
                return Finding(ok: true, subject: subject, detail: "\(info.card) streams \(mode)")
            } catch let error as MediaError {
                let problem = DeviceProblem.camera(path, error)
                return Finding(ok: false, subject: subject, detail: problem.detail, fix: problem.fix)
            } catch {
                return Finding(ok: false, subject: subject, detail: "\(error)", fix: "see udev-notes.md")
            }
        }

        func checkDisk(_ root: String) -> Finding {
            guard let free = DeviceAccess.freeBytes(at: root) else {
                return Finding(ok: false, subject: "disk", detail: "cannot read free space of \(root)", fix: nil)
            }
            let text = ByteCountFormatter.string(fromByteCount: free, countStyle: .file)
            let enough = free > 200 * 1024 * 1024  // a 2-minute 720p message is ~30 MB, plus finalizing
            return Finding(
                ok: enough, subject: "disk", detail: "\(text) free for the library at \(root)",
                fix: enough ? nil : "free some space: a 2-minute video message needs about 60 MB while it is saved")
        }

        /// The engine transcripts are made with: Whisper when it is installed and answers (its
        /// helper started, the model's checksum checked and the model loaded), else PocketSphinx.
        func checkTranscripts() -> Finding {
            let subject = "transcripts"
            let found = WhisperInstallation.find(named: LibraryOptions.configuration.whisper)
            switch found {
            case let .installed(installation):
                let whisper = WhisperRecognizer(installation)
                defer { whisper.stop() }
                do {
                    try whisper.start()
                    let load = whisper.loadSeconds.map { String(format: ", loads in %.1f s", $0) } ?? ""
                    return Finding(
                        ok: true, subject: subject,
                        detail:
                            "Whisper tiny.en (\(whisper.engine)) in \(installation.directory), model checksum good\(load); offline"
                    )
                } catch {
                    return Finding(
                        ok: false, subject: subject,
                        detail:
                            "the Whisper engine in \(installation.directory) does not work: \(error); PocketSphinx makes them meanwhile",
                        fix:
                            "install it again: bash Whisper/install.sh \(installation.directory) (from cravey's source folder)"
                    )
                }
            case let .broken(directory, _):
                return Finding(
                    ok: false, subject: subject, detail: (found.problem ?? "") + "; PocketSphinx makes them meanwhile",
                    fix: "install it again: bash Whisper/install.sh \(directory) (from cravey's source folder)")
            case .notInstalled:
                return Finding(
                    ok: true, subject: subject,
                    detail:
                        "PocketSphinx (Whisper, which writes far better drafts, is not installed: Media/install.sh installs it)"
                )
            case .off:
                return Finding(
                    ok: true, subject: subject, detail: "PocketSphinx (Whisper turned off by CRAVEY_WHISPER=off)")
            }
        }

        /// The background worker's queue: how many wait, since when, and whether a worker runs.
        func checkTranscriptQueue(_ lib: Library) -> Finding {
            let queue = (try? lib.transcriptQueue()) ?? (count: 0, oldest: nil)
            let runs = lib.transcriptWorkerRuns
            guard queue.count > 0 else {
                return Finding(
                    ok: true, subject: "transcript queue", detail: "empty" + (runs ? "; a worker is finishing" : ""))
            }
            let age = queue.oldest.map { Format.duration(max(0, Date().timeIntervalSince($0))) } ?? "?"
            return Finding(
                ok: true, subject: "transcript queue",
                detail: "\(queue.count) waiting, the oldest for \(age); "
                    + (runs
                        ? "a worker is making them"
                        : LibraryOptions.configuration.transcribe == .background
                            ? "no worker ran: one is started now"
                            : "made by 'cravey transcribe --all --wait' (CRAVEY_TRANSCRIBE=\(LibraryOptions.configuration.transcribe.rawValue))")
            )
        }

        /// The database's daily snapshot: the newest, and whether it passes its check.
        func checkSnapshots(_ lib: Library) -> Finding {
            let snapshots = lib.snapshots()
            if let problem = lib.snapshotProblem {
                return Finding(
                    ok: false, subject: "snapshots", detail: "today's could not be taken: \(problem)",
                    fix: "free some space; the next change tries again")
            }
            guard let newest = snapshots.first else {
                return Finding(ok: true, subject: "snapshots", detail: "none yet (the first change of a day takes one)")
            }
            guard lib.isGoodSnapshot(newest) else {
                return Finding(
                    ok: false, subject: "snapshots", detail: "the newest (\(newest.day)) fails its check",
                    fix: "\(Check.repairCommand), and keep a backup: cravey backup DIR")
            }
            return Finding(
                ok: true, subject: "snapshots",
                detail:
                    "newest \(newest.day) (\(Self.age(newest.takenAt))), \(snapshots.count) kept: a lost database loses at most the day's changes"
            )
        }

        /// The last backup's age and place.
        func checkBackup(_ lib: Library) -> Finding {
            guard let last = lib.lastBackup() else {
                return Finding(
                    ok: true, subject: "backup", detail: "none yet",
                    fix: "cravey backup DIR (a USB disk, a share or a synced folder)")
            }
            let days = LocalClock.now().timeIntervalSince(last.at) / 86_400
            return Finding(
                ok: true, subject: "backup", detail: "last \(Self.age(last.at)) to \(last.directory)",
                fix: days > 7 ? "cravey backup \(last.directory)" : nil)
        }

        static func age(_ date: Date) -> String {
            let seconds = max(0, LocalClock.now().timeIntervalSince(date))
            if seconds < 3600 { return "\(Int(seconds / 60)) min ago" }
            if seconds < 86_400 { return "\(Int(seconds / 3600)) h ago" }
            let days = Int(seconds / 86_400)
            return "\(days) day\(days == 1 ? "" : "s") ago"
        }

        func checkLibrary(_ lib: Library) throws -> Finding {
            let report = try lib.check(repair: false, now: LocalClock.now())
            let count = try lib.count()
            let problems = report.problemCount
            if problems == 0 {
                return Finding(
                    ok: true, subject: "library",
                    detail: "\(count) recording\(count == 1 ? "" : "s"), every one with its file")
            }
            return Finding(
                ok: false, subject: "library",
                detail:
                    "\(problems) problem\(problems == 1 ? "" : "s") (\(report.lines(repairCommand: Check.repairCommand).first ?? ""))",
                fix: "run 'cravey check --repair'")
        }
    }
}
