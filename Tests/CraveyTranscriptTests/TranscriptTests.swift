import CraveyTestSupport
import Foundation
import XCTest

/// Transcripts and search end to end, through the built binary: spoken sentences at known places
/// (flite, Media/make-speech.py) imported, recorded through ALSA's file plugin and checked in;
/// made, skipped, deferred, failed, deleted, purged, killed.
final class TranscriptTests: TranscriptTestCase {
    /// The sentence spoken at `time`, if any.
    func sentence(at time: Double) -> SpokenSentence? {
        sentences.first { $0.start - 0.5 <= time && time <= $0.end + 0.5 }
    }

    func testImportMakesATranscriptWithWordTimes() throws {
        let id = try importSpeech()
        let t = try XCTUnwrap(transcript(id))
        XCTAssertEqual(t["state"] as? String, "done")
        XCTAssertTrue((t["engine"] as? String ?? "").hasPrefix("faster-whisper "), "\(t)")
        XCTAssertTrue((t["model"] as? String ?? "").contains("tiny.en"), "\(t)")
        let text = t["text"] as! String
        let reference = sentences.map(\.text).joined(separator: " ")
        let wer = wordErrorRate(reference: reference, hypothesis: text)
        print("transcript: WER \(wer): \(text.replacingOccurrences(of: "\n", with: " / "))")
        XCTAssertLessThanOrEqual(wer, 0.10, text)
        // A line per sentence, written as one (capital, full stop); each line's first word where
        // its sentence starts, its last where it ends (±0.3 s).
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, sentences.count, text)
        XCTAssertTrue(lines.allSatisfy { $0.first!.isUppercase && $0.hasSuffix(".") }, text)
        let words = (t["words"] as! [[Any]]).map {
            (word: $0[0] as! String, start: $0[1] as! Double, end: $0[2] as! Double)
        }
        XCTAssertEqual(spokenWords(words.map(\.word).joined(separator: " ")), spokenWords(text))
        var index = 0
        for (line, sentence) in zip(lines, sentences) {
            XCTAssertEqual(words[index].start, sentence.start, accuracy: 0.3, "\(line)")
            index += line.split(separator: " ").count
            XCTAssertEqual(words[index - 1].end, sentence.end, accuracy: 0.3, "\(line)")
        }
        // Every word lies inside the sentence it belongs to.
        for word in words { XCTAssertNotNil(sentence(at: word.start), "\(word)") }
        // show prints it under its heading, a sentence a line.
        let shown = try run(["show", id]).stdout
        XCTAssertTrue(shown.contains("Transcript (automatic draft)"), shown)
        XCTAssertTrue(shown.contains("0:00  " + lines[0]), shown)

        // PocketSphinx by name: its draft (lower case, no punctuation) is stored with its name;
        // --upgrade makes it again with Whisper.
        let sphinx = try json(["transcribe", id, "--engine", "pocketsphinx"]) as! [[String: Any]]
        XCTAssertEqual(sphinx.first?["outcome"] as? String, "made")
        let drafted = try XCTUnwrap(transcript(id))
        XCTAssertEqual(drafted["engine"] as? String, "PocketSphinx 5prealpha")
        XCTAssertLessThan(wordErrorRate(reference: reference, hypothesis: drafted["text"] as! String), 0.35)
        XCTAssertEqual(
            (try json(["transcribe", "--all"]) as! [[String: Any]]).count, 0, "--all alone leaves a made one")
        let upgraded = try json(["transcribe", "--all", "--upgrade"]) as! [[String: Any]]
        XCTAssertEqual(upgraded.map { $0["outcome"] as? String }, ["made"])
        XCTAssertEqual(try transcript(id)?["text"] as? String, text, "Whisper again, the same words")
        XCTAssertEqual((try json(["transcribe", "--all", "--upgrade"]) as! [[String: Any]]).count, 0)
        // --engine pocketsphinx --all remakes the Whisper ones with PocketSphinx.
        XCTAssertEqual((try json(["transcribe", "--all", "--engine", "pocketsphinx"]) as! [[String: Any]]).count, 1)
        XCTAssertEqual(try transcript(id)?["engine"] as? String, "PocketSphinx 5prealpha")
        for bad in [
            ["transcribe", id, "--upgrade"], ["transcribe", "--all", "--upgrade", "--engine", "pocketsphinx"],
            ["transcribe", id, "--engine", "vosk"],
        ] {
            let out = try run(bad)
            XCTAssertNotEqual(out.status, 0, "\(bad)")
            XCTAssertEqual(
                out.stderr.split(separator: "\n").first.map { $0.hasPrefix("Error:") || $0.hasPrefix("cravey:") }, true,
                out.stderr)
        }
    }

    /// A copy of the Whisper installation next to the build, with one part changed.
    func brokenWhisper(_ change: (String) throws -> Void) throws -> String {
        let real = repositoryRoot + "/.build/whisper"
        let copy = base + "/whisper-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: copy + "/model", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: copy + "/venv", withDestinationPath: real + "/venv")
        try FileManager.default.copyItem(atPath: real + "/cravey-whisper.py", toPath: copy + "/cravey-whisper.py")
        for file in try FileManager.default.contentsOfDirectory(atPath: real + "/model") {
            try FileManager.default.createSymbolicLink(
                atPath: copy + "/model/" + file, withDestinationPath: real + "/model/" + file)
        }
        try change(copy)
        return copy
    }

    func testABrokenWhisperFallsBackToPocketSphinxWithOneLine() throws {
        let changed = try brokenWhisper { copy in
            let bin = copy + "/model/model.bin"
            var bytes = try Data(contentsOf: URL(fileURLWithPath: bin))
            bytes[bytes.count / 2] ^= 0xFF
            try FileManager.default.removeItem(atPath: bin)
            try bytes.write(to: URL(fileURLWithPath: bin))
        }
        let noPython = try brokenWhisper { copy in try FileManager.default.removeItem(atPath: copy + "/venv") }
        for (whisper, reason) in [(changed, "checksum does not match"), (noPython, "Python interpreter")] {
            try? FileManager.default.removeItem(atPath: root)
            let out = try run(["import", speech, "--title", "Six sentences"], ["CRAVEY_WHISPER": whisper])
            XCTAssertEqual(out.status, 0, out.stderr)
            XCTAssertEqual(out.stderr.split(separator: "\n").count, 1, out.stderr)
            XCTAssertTrue(out.stderr.contains(reason) && out.stderr.contains("PocketSphinx"), out.stderr)
            let id = ((try json(["list"]) as! [[String: Any]]).first!["id"] as! String)
            let t = try XCTUnwrap(transcript(id))
            XCTAssertEqual(t["state"] as? String, "done")
            XCTAssertEqual(t["engine"] as? String, "PocketSphinx 5prealpha", "the transcript says which engine made it")
            XCTAssertTrue(try run(["show", id]).stdout.contains("PocketSphinx 5prealpha"))
            // Whisper by name: one line, nothing changed; doctor names the problem.
            let upgrade = try run(["transcribe", "--all", "--upgrade"], ["CRAVEY_WHISPER": whisper])
            XCTAssertEqual(upgrade.status, 1)
            XCTAssertEqual(upgrade.stderr.split(separator: "\n").count, 1, upgrade.stderr)
            XCTAssertTrue(upgrade.stderr.contains(reason), upgrade.stderr)
            XCTAssertEqual(try transcript(id)?["engine"] as? String, "PocketSphinx 5prealpha")
            let doctor = try run(["doctor", "--mic", "null"], ["CRAVEY_WHISPER": whisper])
            XCTAssertTrue(doctor.stdout.contains("✗ transcripts:") && doctor.stdout.contains(reason), doctor.stdout)
            XCTAssertTrue(doctor.stdout.contains("bash Whisper/install.sh \(whisper)"), doctor.stdout)
        }
        // Turned off, PocketSphinx says nothing; the real engine upgrades the draft.
        XCTAssertEqual(
            try run(["transcribe", "--all", "--engine", "pocketsphinx"], ["CRAVEY_WHISPER": "off"]).stderr, "")
        let doctor = try run(["doctor", "--mic", "null"])
        XCTAssertTrue(doctor.stdout.contains("✓ transcripts: Whisper tiny.en (faster-whisper"), doctor.stdout)
        XCTAssertEqual(
            (try json(["transcribe", "--all", "--upgrade"]) as! [[String: Any]]).first?["outcome"] as? String, "made")
        let id = ((try json(["list"]) as! [[String: Any]]).first!["id"] as! String)
        XCTAssertTrue((try transcript(id)?["engine"] as? String ?? "").hasPrefix("faster-whisper"))
    }

    /// No network: the whole transcription (cravey and its helper, every thread) opens no
    /// socket but local ones, and it works where there is no network at all.
    func testTranscriptsUseNoNetwork() throws {
        guard getuid() == 0 else { throw XCTSkip("unshare -n needs root (CI runs as root)") }
        let id = try importSpeech([], ["CRAVEY_TRANSCRIBE": "later"])
        let trace = base + "/network.trace"
        let traced = try runProcess(
            "/usr/bin/strace",
            ["-f", "-e", "trace=network", "-o", trace, cravey, "transcribe", id, "--wait", "--library", root])
        XCTAssertEqual(traced.status, 0, traced.stderr)
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n").filter {
            $0.contains("socket(") || $0.contains("connect(")
        }
        XCTAssertFalse(calls.isEmpty, "strace saw the name service's local socket at least (the trace works)")
        for call in calls { XCTAssertTrue(call.contains("AF_UNIX"), "only local sockets: \(call)") }
        XCTAssertEqual(try sql("DELETE FROM transcript"), "")
        let isolated = try runProcess(
            "/usr/bin/unshare", ["-n", cravey, "transcribe", id, "--wait", "--library", root])
        XCTAssertEqual(isolated.status, 0, isolated.stderr)
        XCTAssertEqual(isolated.stderr, "")
        XCTAssertTrue(
            (try transcript(id)?["engine"] as? String ?? "").hasPrefix("faster-whisper"),
            "Whisper made it with no network")
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
            let played = try run(
                ["play", id, "--speaker", "cravey_capture"] + arguments,
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
        let tmux = try TmuxSession(
            "env CRAVEY_TRANSCRIBE=now NO_COLOR=1 \(shellQuote(cravey)) import \(shellQuote(long)) --title Long "
                + "--library \(shellQuote(root)); echo EXIT=$?; sleep 60")
        defer { tmux.close() }
        let screen = try tmux.waitFor("q skip", timeout: 30)
        XCTAssertTrue(screen.contains("Imported 'Long'"), screen)
        XCTAssertTrue(screen.contains("Transcribing 'Long'"), screen)
        let helper = try XCTUnwrap(whisperHelpers().first, "Whisper is transcribing")
        try tmux.send("q", literal: true)
        let after = try tmux.waitFor("EXIT=", timeout: 10)
        XCTAssertTrue(after.contains("EXIT=0"), after)
        XCTAssertTrue(waitUntilGone(helper), "q killed the Whisper helper")
        XCTAssertTrue(after.contains("transcript skipped"), after)
        let id = ((try json(["list"]) as! [[String: Any]]).first!["id"] as! String)
        XCTAssertNil(try transcript(id), "a skipped transcript is not stored")
        let all = try json(["transcribe", "--all"]) as! [[String: Any]]
        XCTAssertEqual(all.first?["outcome"] as? String, "made")
        XCTAssertGreaterThan(
            all.first?["words"] as? Int ?? 0, 150, "110 s of speech, cut at its pauses, is transcribed to the end")
    }

    func testAFailingRecognizerNeverBlocksTheSave() throws {
        // Both engines broken: PocketSphinx's model missing, Whisper turned off.
        let broken = ["CRAVEY_SPEECH_MODEL": base + "/no-such-model", "CRAVEY_WHISPER": "off"]
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
        XCTAssertEqual(
            Array(header.suffix(4)), ["transcript", "transcriptState", "transcriptEngine", "transcriptModel"])
        XCTAssertTrue(table[1][header.firstIndex(of: "transcript")!].contains("doctor"), csv)
        let exported =
            (try JSONSerialization.jsonObject(
                with: Data(try run(["export", "--format", "json", "--output", "-"]).stdout.utf8)) as! [String: Any])[
                "recordings"] as! [[String: Any]]
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
        // SIGKILL at every library step of a transcription, the transcript's commit among them
        // (of one sentence: it is recognized again after most of the kills).
        let short = base + "/one-sentence.wav"
        _ = try makeSpeech(short, saying: ["the meeting with the doctor is on monday morning"])
        let id = try importSpeech([], ["CRAVEY_TRANSCRIBE": "later"], file: short)
        // (Counted once the day's snapshot exists: the day's first change takes it, not every run.)
        XCTAssertEqual(try run(["transcribe", id]).status, 0)
        XCTAssertEqual(try sql("DELETE FROM transcript"), "")
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
            XCTAssertEqual(
                try sql("INSERT INTO recordingSearch (recordingSearch) VALUES ('integrity-check'); SELECT 'ok'"), "ok")
            let found = (try json(["search", "doctor"]) as! [[String: Any]]).count
            let made = try transcript(id) != nil
            XCTAssertEqual(found, made ? 1 : 0, "step \(step): the index follows the transcript exactly")
            XCTAssertEqual(
                (try json(["search", "sentences"]) as! [[String: Any]]).count, 1, "the title is still found")
        }
        // A kill by a signal in the middle of the recognition (no library step yet): nothing stored.
        try FileManager.default.removeItem(atPath: root)
        let long = base + "/long.wav"
        try makeSpeech(long, seconds: 60)
        let longId = try importSpeech([], ["CRAVEY_TRANSCRIBE": "later"], file: long)
        let process = try start(["transcribe", "--all"])
        let helper = try waitForWhisperHelper(of: process.processIdentifier)
        usleep(1_000_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        XCTAssertTrue(waitUntilGone(helper), "the Whisper helper dies with cravey")
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
        let recorder = try start(
            ["record", "audio", "--mic", "cravey_file", "--yes"],
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
        let (tmux, screen) = try checkInToItsClose(microphone: fifo, day: "2026-11-22", recordFor: "0:12")
        defer { tmux.close() }
        XCTAssertTrue(screen.contains("Transcript (automatic draft)"), screen)
        XCTAssertTrue(screen.contains("why you started"), screen)
        XCTAssertTrue(screen.contains("…"), "more than three lines: the rest is in 'checkin show'\n" + screen)
        // Said saved only because it was; `s` (See more) shows the rest, to its last word.
        XCTAssertTrue(screen.contains("Transcript saved automatically"), screen)
        XCTAssertTrue(screen.contains("s  See more"), screen)
        let entry = try XCTUnwrap(
            try json(["checkin", "show", "2026-11-22"], ["CRAVEY_NOW": "2026-11-22T10:05:00"]) as? [String: Any])
        let text = try XCTUnwrap((entry["transcript"] as? [String: Any])?["text"] as? String, "\(entry)")
        let last = try XCTUnwrap(text.split(whereSeparator: \.isWhitespace).last.map(String.init))
        try tmux.send("s", literal: true)
        var page = try tmux.waitFor("Back")
        for _ in 0..<5 where !page.contains("Enter  Back") {
            try tmux.send("Space")
            usleep(300_000)  // the next page drawn
            page = try tmux.waitFor("Back")
        }
        XCTAssertTrue(page.contains(last), "See more reaches the end '\(last)': \(page)")
        try tmux.send("Enter")
        try tmux.waitFor("Listen back")
        try tmux.send("Enter")
        XCTAssertTrue(try tmux.waitFor("EXIT=").contains("EXIT=0"))
    }
}
