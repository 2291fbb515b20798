import CraveyTestSupport
import Foundation
import XCTest

/// Transcripts and search end to end, through the built binary: spoken sentences at known places
/// (flite, Media/make-speech.py) imported, recorded through ALSA's file plugin and checked in;
/// made, skipped, deferred, failed, deleted, purged, killed.
final class TranscriptTests: CommandTestCase {
    var sentences: [SpokenSentence] = []
    var speech: String { base + "/speech.wav" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        sentences = try makeSpeech(speech, sentences: 6)
    }

    override func tearDownWithError() throws {
        _ = try? runProcess("/usr/bin/pkill", ["-f", base + "/mic"])
        try super.tearDownWithError()
    }

    func run(_ arguments: [String], _ environment: [String: String] = [:]) throws -> (status: Int32, stdout: String, stderr: String) {
        try runProcess(cravey, arguments + ["--library", root], environment: ["CRAVEY_TRANSCRIBE": "now", "NO_COLOR": "1"].merging(environment) { $1 })
    }

    /// `cravey ARGS` in the background (output dropped), to be killed.
    func start(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: cravey)
        process.arguments = arguments + ["--library", root]
        process.environment = ProcessInfo.processInfo.environment.merging(["CRAVEY_TRANSCRIBE": "now"].merging(environment) { $1 }) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    func json(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Any {
        let out = try run(arguments + ["--json"], environment)
        XCTAssertEqual(out.status, 0, out.stderr)
        return try json(out.stdout)
    }

    func importSpeech(_ extra: [String] = [], _ environment: [String: String] = [:], file: String? = nil) throws -> String {
        let row = try json(["import", file ?? speech, "--title", "Six sentences"] + extra, environment) as! [String: Any]
        return row["id"] as! String
    }

    func transcript(_ id: String) throws -> [String: Any]? {
        (try json(["show", id]) as! [String: Any])["transcript"] as? [String: Any]
    }

    func sql(_ query: String) throws -> String {
        let out = try runProcess("/usr/bin/sqlite3", [root + "/library.sqlite", query])
        XCTAssertEqual(out.status, 0, out.stderr)
        return out.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The sentence spoken at `time`, if any.
    func sentence(at time: Double) -> SpokenSentence? { sentences.first { $0.start - 0.5 <= time && time <= $0.end + 0.5 } }

    func testImportMakesATranscriptWithWordTimes() throws {
        let id = try importSpeech()
        let t = try XCTUnwrap(transcript(id))
        XCTAssertEqual(t["state"] as? String, "done")
        XCTAssertEqual(t["engine"] as? String, "PocketSphinx 5prealpha")
        XCTAssertTrue((t["model"] as? String ?? "").contains("en-us"))
        let text = t["text"] as! String
        let reference = sentences.map(\.text).joined(separator: " ")
        let wer = wordErrorRate(reference: reference, hypothesis: text.replacingOccurrences(of: "\n", with: " "))
        print("transcript: WER \(wer): \(text.replacingOccurrences(of: "\n", with: " / "))")
        XCTAssertLessThan(wer, 0.35, text)
        // A line per sentence; each line's first word where its sentence starts (±0.5 s).
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, sentences.count, text)
        let words = (t["words"] as! [[Any]]).map { (word: $0[0] as! String, start: $0[1] as! Double, end: $0[2] as! Double) }
        XCTAssertEqual(words.map(\.word).joined(separator: " "), text.replacingOccurrences(of: "\n", with: " "))
        var index = 0
        for (line, sentence) in zip(lines, sentences) {
            XCTAssertEqual(words[index].start, sentence.start, accuracy: 0.5, "\(line)")
            index += line.split(separator: " ").count
            XCTAssertEqual(words[index - 1].end, sentence.end, accuracy: 0.5, "\(line)")
        }
        // Every word lies inside the sentence it belongs to.
        for word in words { XCTAssertNotNil(sentence(at: word.start), "\(word)") }
        // show prints it under its heading.
        let shown = try run(["show", id]).stdout
        XCTAssertTrue(shown.contains("Transcript (automatic draft)"), shown)
        XCTAssertTrue(shown.contains(String(lines[0])), shown)
    }

    func testSearchFindsWordsTitlesAndNotesAndPlaysFromTheWord() throws {
        let id = try importSpeech(["--notes", "about the garden tomatoes"])
        // A transcript word: found, with the time of the first matching word, inside its sentence.
        let hits = try json(["search", "doctor"]) as! [[String: Any]]
        XCTAssertEqual(hits.count, 1)
        XCTAssertEqual(hits[0]["id"] as? String, id)
        XCTAssertEqual(hits[0]["field"] as? String, "transcript")
        XCTAssertEqual(hits[0]["match"] as? [String], ["doctor"])
        let at = try XCTUnwrap(hits[0]["at"] as? Double)
        XCTAssertEqual(sentence(at: at)?.text, "the meeting with the doctor is on monday morning")
        // Every word must be there; forms of a word match (breath → breathing is not said; proud is).
        XCTAssertEqual((try json(["search", "glass", "water"]) as! [[String: Any]]).count, 1)
        XCTAssertEqual((try json(["search", "glass", "zebra"]) as! [[String: Any]]).count, 0)
        XCTAssertEqual((try json(["search", "zebra"]) as! [[String: Any]]).count, 0)
        XCTAssertTrue(try run(["search", "zebra"]).stdout.contains("Nothing matches 'zebra'"))
        // Title and notes: found, without a time.
        let title = try json(["search", "sentences"]) as! [[String: Any]]
        XCTAssertEqual(title.first?["field"] as? String, "title")
        XCTAssertTrue(title.first?["at"] is NSNull)
        XCTAssertEqual((try json(["search", "tomatoes"]) as! [[String: Any]]).first?["field"] as? String, "notes")
        // An edit is searchable at once, the old title no longer.
        XCTAssertEqual(try run(["edit", id, "--title", "Evening walk"]).status, 0)
        XCTAssertEqual((try json(["search", "sentences"]) as! [[String: Any]]).count, 0)
        XCTAssertEqual((try json(["search", "evening"]) as! [[String: Any]]).count, 1)
        // The terminal listing marks the match and gives the time.
        let listed = try run(["search", "doctor"]).stdout
        XCTAssertTrue(listed.contains("[doctor]"), listed)
        XCTAssertTrue(listed.contains("at 0:"), listed)
        // Query syntax is just words: quotes, stars and operators are not errors.
        XCTAssertEqual(try run(["search", "\"doctor", "AND", "*"]).status, 0)
        let nothing = try run(["search", "***"])
        XCTAssertEqual(nothing.status, 1)
        XCTAssertTrue(nothing.stderr.contains("give at least one word"), nothing.stderr)

        // play --from-word starts at the word: the speaker gets the rest of the recording only.
        let duration = (try json(["show", id]) as! [String: Any])["duration"] as! Double
        for (arguments, start) in [(["--from-word", "doctor"], at), (["--from", "0:05"], 5.0), ([String](), 0.0)] {
            let out = base + "/speaker-\(start).raw"
            let played = try run(["play", id, "--speaker", "cravey_capture"] + arguments,
                                 ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_OUTFILE": out])
            XCTAssertEqual(played.status, 0, played.stderr)
            let seconds = Double((try FileManager.default.attributesOfItem(atPath: out)[.size] as? Int) ?? 0) / 96_000
            XCTAssertEqual(seconds, duration - start, accuracy: 0.5, "\(arguments)")
        }
        let missing = try run(["play", id, "--from-word", "zebra"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertEqual(missing.stderr.split(separator: "\n").count, 1, missing.stderr)
        XCTAssertTrue(missing.stderr.contains("'zebra' is not in the transcript"), missing.stderr)
        XCTAssertNotEqual(try run(["play", id, "--from", "9:99"]).status, 0)
        XCTAssertTrue(try run(["play", id, "--from", "5:00"]).stderr.contains("past the end"))
    }

    func testDeferredTranscriptsAreMadeByTranscribeAllOrAfterTheNextSave() throws {
        let first = try importSpeech([], ["CRAVEY_TRANSCRIBE": "later"])
        XCTAssertNil(try transcript(first))
        XCTAssertTrue(try run(["show", first]).stdout.contains("not made yet"))
        XCTAssertEqual((try json(["search", "doctor"]) as! [[String: Any]]).count, 0, "no transcript, nothing to find")
        // The next save makes its own transcript and the one waiting.
        let second = try importSpeech()
        XCTAssertEqual(try transcript(first)?["state"] as? String, "done")
        XCTAssertEqual(try transcript(second)?["state"] as? String, "done")
        XCTAssertEqual((try json(["search", "doctor"]) as! [[String: Any]]).count, 2)
        // transcribe --all makes every waiting one; with none waiting it says so.
        let third = try importSpeech([], ["CRAVEY_TRANSCRIBE": "later"])
        let made = try json(["transcribe", "--all"]) as! [[String: Any]]
        XCTAssertEqual(made.map { $0["id"] as? String }, [third])
        XCTAssertEqual(made.first?["outcome"] as? String, "made")
        XCTAssertTrue(try run(["transcribe", "--all"]).stdout.contains("Every recording has its transcript"))
        // transcribe ID makes it again.
        XCTAssertTrue(try run(["transcribe", String(first.prefix(8))]).stdout.contains("Transcribed 'Six sentences'"))
        XCTAssertNotEqual(try run(["transcribe"]).status, 0)
    }

    func testQSkipsTheTranscriptInATerminalAndItIsMadeLater() throws {
        let long = base + "/long.wav"
        try makeSpeech(long, seconds: 110)
        let tmux = try TmuxSession("env CRAVEY_TRANSCRIBE=now NO_COLOR=1 \(shellQuote(cravey)) import \(shellQuote(long)) --title Long "
                                   + "--library \(shellQuote(root)); echo EXIT=$?; sleep 60")
        defer { tmux.close() }
        let screen = try tmux.waitFor("q skip", timeout: 30)
        XCTAssertTrue(screen.contains("Imported 'Long'"), screen)
        XCTAssertTrue(screen.contains("Transcribing 'Long'"), screen)
        try tmux.send("q", literal: true)
        let after = try tmux.waitFor("EXIT=", timeout: 10)
        XCTAssertTrue(after.contains("EXIT=0"), after)
        XCTAssertTrue(after.contains("transcript skipped"), after)
        let id = ((try json(["list"]) as! [[String: Any]]).first!["id"] as! String)
        XCTAssertNil(try transcript(id), "a skipped transcript is not stored")
        let all = try json(["transcribe", "--all"]) as! [[String: Any]]
        XCTAssertEqual(all.first?["outcome"] as? String, "made")
        XCTAssertGreaterThan(all.first?["words"] as? Int ?? 0, 150, "110 s of speech, cut at its pauses, is transcribed to the end")
    }

    func testAFailingRecognizerNeverBlocksTheSave() throws {
        let broken = ["CRAVEY_SPEECH_MODEL": base + "/no-such-model"]
        let out = try run(["import", speech, "--title", "Six sentences"], broken)
        XCTAssertEqual(out.status, 0, out.stderr)
        XCTAssertTrue(out.stdout.contains("Imported 'Six sentences'"), out.stdout)
        XCTAssertEqual(out.stderr.split(separator: "\n").count, 1, out.stderr)
        XCTAssertTrue(out.stderr.contains("unavailable"), out.stderr)
        let id = ((try json(["list"]) as! [[String: Any]]).first!["id"] as! String)
        let t = try XCTUnwrap(transcript(id))
        XCTAssertEqual(t["state"] as? String, "unavailable")
        XCTAssertTrue((t["problem"] as? String ?? "").contains("speech model"), "\(t)")
        XCTAssertTrue(try run(["show", id]).stdout.contains("unavailable"))
        // Everything else works: search by title, play, edit.
        XCTAssertEqual((try json(["search", "sentences"]) as! [[String: Any]]).count, 1)
        XCTAssertEqual(try run(["edit", id, "--notes", "still here"]).status, 0)
        // A failing commit of the transcript (the seam) is the same: saved, noted, exit 0.
        let commit = try run(["import", speech, "--title", "Second"], ["CRAVEY_FAULT_FAIL": "transcript.commit"])
        XCTAssertEqual(commit.status, 0, commit.stderr)
        XCTAssertTrue(commit.stderr.contains("could not be stored"), commit.stderr)
        // transcribe --all with the broken model fails (exit 1) and says why; with the model, both are made.
        let failed = try run(["transcribe", "--all"], broken)
        XCTAssertEqual(failed.status, 1)
        XCTAssertTrue(failed.stdout.contains("unavailable"), failed.stdout)
        let fixed = try json(["transcribe", "--all"]) as! [[String: Any]]
        XCTAssertEqual(fixed.count, 2)
        XCTAssertEqual(Set(fixed.map { $0["outcome"] as? String }), ["made"])
    }

    func testDeleteAndPurgeRemoveTranscriptsAndExportCarriesThem() throws {
        let keep = try importSpeech()
        let gone = try importSpeech()
        XCTAssertEqual(try sql("SELECT count(*) FROM transcript"), "2")
        // Export: the transcript's text, state, engine and model; JSON also its words.
        let csv = try run(["export", "--format", "csv", "--output", "-"]).stdout
        let table = parseCSV(csv)
        let header = table[0]
        XCTAssertEqual(Array(header.suffix(4)), ["transcript", "transcriptState", "transcriptEngine", "transcriptModel"])
        XCTAssertTrue(table[1][header.firstIndex(of: "transcript")!].contains("doctor"), csv)
        let exported = (try JSONSerialization.jsonObject(with: Data(try run(["export", "--format", "json", "--output", "-"]).stdout.utf8)) as! [String: Any])["recordings"] as! [[String: Any]]
        XCTAssertEqual((exported[0]["transcriptWords"] as? [[Any]])?.isEmpty, false)

        XCTAssertEqual(try run(["delete", gone, "--yes"]).status, 0)
        XCTAssertEqual(try sql("SELECT recordingId FROM transcript"), keep)
        XCTAssertEqual(try sql("SELECT count(*) FROM recordingSearch"), "1")
        XCTAssertEqual((try json(["search", "doctor"]) as! [[String: Any]]).map { $0["id"] as? String }, [keep])
        XCTAssertEqual(try run(["purge", "--yes"]).status, 0)
        XCTAssertEqual(try sql("SELECT count(*) FROM transcript"), "0")
        XCTAssertEqual(try sql("SELECT count(*) FROM recordingSearch"), "0")
        XCTAssertEqual((try json(["search", "doctor"]) as! [[String: Any]]).count, 0)
    }

    func testSearchStaysConsistentAfterAKillDuringTranscriptionAndCheckRepairsOutsideDamage() throws {
        // SIGKILL at every library step of a transcription, the transcript's commit among them.
        let id = try importSpeech([], ["CRAVEY_TRANSCRIBE": "later"])
        let traced = try run(["transcribe", id], ["CRAVEY_FAULT_TRACE": "1"])
        let steps = traced.stderr.split(separator: "\n").filter { $0.hasPrefix("fault-site ") }.count
        XCTAssertGreaterThan(steps, 0, traced.stderr)
        XCTAssertEqual(try sql("DELETE FROM transcript"), "")
        XCTAssertEqual(try run(["check", "--repair"]).status, 0)
        for step in 1...steps {
            let killed = try run(["transcribe", id], ["CRAVEY_FAULT_KILL_AT": String(step)])
            XCTAssertEqual(killed.status, -SIGKILL, "step \(step): \(killed.stderr)")
            let check = try run(["check"])
            XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
            XCTAssertFalse((check.stdout + check.stderr).contains("search index"), "step \(step): \(check.stdout)")
            XCTAssertEqual(try sql("INSERT INTO recordingSearch (recordingSearch) VALUES ('integrity-check'); SELECT 'ok'"), "ok")
            let found = (try json(["search", "doctor"]) as! [[String: Any]]).count
            let made = try transcript(id) != nil
            XCTAssertEqual(found, made ? 1 : 0, "step \(step): the index follows the transcript exactly")
            XCTAssertEqual((try json(["search", "sentences"]) as! [[String: Any]]).count, 1, "the title is still found")
        }
        // A kill by a signal in the middle of the recognition (no library step yet): nothing stored.
        try FileManager.default.removeItem(atPath: root)
        let long = base + "/long.wav"
        try makeSpeech(long, seconds: 60)
        let longId = try importSpeech([], ["CRAVEY_TRANSCRIBE": "later"], file: long)
        let process = try start(["transcribe", "--all"])
        usleep(1_500_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertNil(try transcript(longId))
        XCTAssertFalse(try run(["check"]).stdout.contains("search index"))
        XCTAssertEqual((try json(["transcribe", "--all"]) as! [[String: Any]]).first?["outcome"] as? String, "made")

        // Damage from outside (the index emptied behind cravey's back): check finds it, --repair rebuilds it.
        XCTAssertEqual(try sql("DELETE FROM recordingSearch"), "")
        let found = try run(["check"])
        XCTAssertTrue(found.stdout.contains("search index"), found.stdout)
        XCTAssertEqual((try json(["search", "doctor"]) as! [[String: Any]]).count, 0)
        XCTAssertTrue(try run(["check", "--repair"]).stdout.contains("rebuilt the search index"))
        XCTAssertEqual((try json(["search", "doctor"]) as! [[String: Any]]).count, 1)
        XCTAssertFalse(try run(["check"]).stdout.contains("search index"))
    }

    func testARecordingRecoveredAfterAKillGetsItsTranscriptOnceTheCommandIsDone() throws {
        // A recording of the spoken sentences from a microphone paced like a real one, SIGKILLed.
        let raw = base + "/mic-speech.raw"
        try microphoneRaw(from: speech, to: raw)
        let fifo = base + "/mic.fifo"
        let feeder = try pacedFIFO(fifo, feeding: raw)
        defer { feeder.terminate() }
        let recorder = try start(["record", "audio", "--mic", "cravey_file", "--yes"],
                                 ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": fifo])
        sleep(9)
        kill(recorder.processIdentifier, SIGKILL)
        recorder.waitUntilExit()
        // The next command (a listing) recovers it, lists it, and then makes its transcript.
        let listed = try run(["list"])
        XCTAssertEqual(listed.status, 0, listed.stderr)
        XCTAssertTrue(listed.stderr.contains("recovered an interrupted recording"), listed.stderr)
        XCTAssertTrue(listed.stdout.contains("Recovered recording"), listed.stdout)
        let id = ((try json(["list"]) as! [[String: Any]]).first!["id"] as! String)
        let t = try XCTUnwrap(transcript(id))
        XCTAssertEqual(t["state"] as? String, "done")
        // The take starts wherever the microphone was when recording began, so its first word may be
        // cut: what follows is asserted.
        let text = t["text"] as? String ?? ""
        XCTAssertTrue(text.contains("started this journey") && text.contains("hard things"), "\(t)")
    }

    func testACheckInShowsTheStartOfItsTranscript() throws {
        // The scripted check-in records the spoken sentences from the file plugin until they end.
        let raw = base + "/mic-speech.raw"
        try microphoneRaw(from: speech, to: raw)
        let alsa = ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": raw, "CRAVEY_NOW": "2026-11-21T10:00:00"]
        let saved = try run(["checkin", "--mood", "happy", "--mic", "cravey_file"], alsa)
        XCTAssertEqual(saved.status, 0, saved.stderr)
        // The recognizer may mishear a take's very first word ("remember" as "fernando"): the words
        // after it are asserted.
        let listed = try run(["checkin", "list"], alsa).stdout
        XCTAssertTrue(listed.contains("why you started"), listed)
        let shown = try run(["checkin", "show", "2026-11-21"], alsa).stdout
        XCTAssertTrue(shown.contains("Transcript (automatic draft)"), shown)
        XCTAssertTrue(shown.contains("doctor"), shown)
        // The close screen of the flow shows its first three lines.
        let fifo = base + "/mic.fifo"
        let feeder = try pacedFIFO(fifo, feeding: raw, repeating: true)
        defer { feeder.terminate() }
        let env = ["CRAVEY_TRANSCRIBE=now", "NO_COLOR=1", "ALSA_CONFIG_PATH=" + shellQuote(testALSAConfig), "CRAVEY_ALSA_INFILE=" + shellQuote(fifo),
                   "CRAVEY_NOW=2026-11-22T10:00:00"].joined(separator: " ")
        let tmux = try TmuxSession("env \(env) \(shellQuote(cravey)) checkin --mic cravey_file --library \(shellQuote(root)); echo EXIT=$?; sleep 60")
        defer { tmux.close() }
        try tmux.waitFor("Take a moment for yourself")
        try tmux.send("Enter")
        try tmux.waitFor("How does today feel")
        try tmux.send("4", literal: true)
        try tmux.send("Enter")
        try tmux.waitFor("Just one question for today")
        try tmux.send("Enter")
        try tmux.waitFor("0:12", timeout: 30)
        try tmux.send("Enter")
        let screen = try tmux.waitFor("Listen back", timeout: 30)
        XCTAssertTrue(screen.contains("Transcript (automatic draft)"), screen)
        XCTAssertTrue(screen.contains("why you started"), screen)
        XCTAssertTrue(screen.contains("…"), "more than three lines: the rest is in 'checkin show'\n" + screen)
        try tmux.send("Enter")
        XCTAssertTrue(try tmux.waitFor("EXIT=").contains("EXIT=0"))
    }
}
