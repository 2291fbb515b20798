import CraveyTestSupport
import Foundation
import XCTest

/// Sound that helps in a hard moment, end to end through the built `cravey`: playback at one
/// level (what reaches the speaker, read back through ALSA's file plugin and measured with the
/// ffmpeg CLI's own EBU R128 meter), silence trimming, exact trims and their atomicity.
final class SoundTests: CommandTestCase {

    override func setUpWithError() throws {
        try super.setUpWithError()
    }

    override func tearDownWithError() throws {
        try super.tearDownWithError()
    }

    func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        try runProcess(cravey, arguments + ["--library", root], environment: environment)
    }

    /// Spoken words (espeak-ng) at a chosen loudness: `gain` dB after normalizing the peak to 0 dBFS.
    /// `compressed`: squeezed like a voice shouting into a headset (far louder than -16 LUFS).
    func speech(_ name: String, gain: Double, padding: (Double, Double) = (0, 0), compressed: Bool = false) throws
        -> String
    {
        let raw = base + "/\(name)-voice.wav"
        let spoken = try runProcess(
            "/usr/bin/espeak-ng",
            ["-w", raw, "Remember why you started. You are stronger than this moment, and it will pass."])
        XCTAssertEqual(spoken.status, 0, spoken.stderr)
        let out = base + "/\(name).wav"
        let shaped = try runProcess(
            "/usr/bin/sox",
            [raw, "-r", "48000", "-c", "1", "-b", "16", out]
                + (compressed ? ["compand", "0.005,0.05", "-60,-60,-40,-8,0,-2", "gain", "-n", "-0.5"] : [])
                + ["gain", "-n", String(gain), "pad", String(padding.0), String(padding.1)])
        XCTAssertEqual(shaped.status, 0, shaped.stderr)
        return out
    }

    func measured(_ path: String) throws -> (lufs: Double, truePeak: Double) { try ebur128(path) }

    /// Plays a recording to the capture file; returns what reached the speaker, as a WAV.
    func played(_ id: String, _ extra: [String] = []) throws -> (wav: String, samples: [Float]) {
        let raw = base + "/out-\(UUID().uuidString.prefix(6)).raw"
        let result = try run(
            ["play", id, "--speaker", "cravey_capture"] + extra,
            environment: ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_OUTFILE": raw])
        XCTAssertEqual(result.status, 0, result.stderr)
        let wav = raw + ".wav"
        let converted = try runProcess(
            "/usr/bin/sox", ["-t", "raw", "-r", "48000", "-e", "signed", "-b", "16", "-c", "1", raw, wav])
        XCTAssertEqual(converted.status, 0, converted.stderr)
        return (wav, try readS16(raw))
    }

    func imported(_ file: String, _ extra: [String] = []) throws -> [String: Any] {
        let result = try run(["import", file, "--json"] + extra)
        XCTAssertEqual(result.status, 0, result.stderr)
        return try jsonObject(result.stdout)
    }

    func testQuietAndLoudRecordingsReachTheSpeakerAtTheSameLevelWithoutClipping() throws {
        for (name, gain, compressed) in [
            ("quiet laptop mic", -24.0, false), ("whispered", -36.0, false), ("headset", -0.5, false),
            ("shouting", -0.5, true),
        ] {
            let row = try imported(
                try speech(name.replacingOccurrences(of: " ", with: "-"), gain: gain, compressed: compressed),
                ["--title", name])
            let stored = try XCTUnwrap(row["loudness"] as? Double)
            let id = row["id"] as! String
            let (wav, samples) = try played(id)
            let out = try measured(wav)
            print(
                "\(name): stored \(String(format: "%.1f", stored)) LUFS, true peak \(row["truePeak"] ?? "?") dBTP, gain \(row["playbackGain"] ?? "?") dB → at the speaker \(out.lufs) LUFS, true peak \(out.truePeak) dBTP"
            )
            XCTAssertEqual(out.lufs, -16, accuracy: 1, "\(name) is played at -16 LUFS")
            XCTAssertLessThanOrEqual(out.truePeak, -0.9, "\(name): the true peak stays under -1 dBTP")
            XCTAssertLessThan(samples.map(abs).max() ?? 1, 32767.0 / 32768, "\(name): no sample is clipped")
            // As recorded: the file's own level.
            let original = try measured(try played(id, ["--original-level"]).wav)
            XCTAssertEqual(original.lufs, stored, accuracy: 1, "\(name) --original-level")
            let shown = try run(["show", id])
            XCTAssertTrue(shown.stdout.contains("loudness   "), shown.stdout)
            if name == "whispered" {
                XCTAssertLessThan(stored, -50, "the control: recorded far below speech (\(stored) LUFS)")
                XCTAssertTrue(shown.stdout.contains("it was recorded very quietly"), shown.stdout)
            } else {
                XCTAssertFalse(shown.stdout.contains("recorded very quietly"), shown.stdout)
            }
            XCTAssertTrue(shown.stdout.contains("LUFS") && shown.stdout.contains("played at"), shown.stdout)
        }
    }

    func testARecordingFromBeforeMeasuringIsMeasuredWhenPlayedOrRepaired() throws {
        let first = try imported(try speech("old", gain: -20), ["--title", "old"])
        let second = try imported(try speech("older", gain: -10), ["--title", "older"])
        // As a library from before loudness was measured has them.
        let cleared = try runProcess(
            "/usr/bin/sqlite3",
            [root + "/library.sqlite", "UPDATE recording SET loudness = NULL, truePeak = NULL, playbackGain = NULL"])
        XCTAssertEqual(cleared.status, 0, cleared.stderr)
        let shown = try run(["show", first["id"] as! String])
        XCTAssertTrue(shown.stdout.contains("not measured yet"), shown.stdout)
        let checked = try run(["check"])
        XCTAssertEqual(checked.status, 0, "not measured is not damage: \(checked.stdout)")
        XCTAssertTrue(checked.stdout.contains("loudness not measured yet"), checked.stdout)
        // Played: measured on the way and stored.
        XCTAssertEqual(try measured(try played(first["id"] as! String).wav).lufs, -16, accuracy: 1)
        // An import measures the samples it encodes, a later measurement the file as encoded: AAC
        // at 96 kb/s moves speech's loudness by well under 0.1 LU.
        let again = try jsonObject(try run(["show", first["id"] as! String, "--json"]).stdout)
        XCTAssertEqual(again["loudness"] as? Double ?? 0, first["loudness"] as? Double ?? 1, accuracy: 0.1)
        // Repaired: check measures the rest.
        let repaired = try run(["check", "--repair"])
        XCTAssertTrue(repaired.stdout.contains("measured loudness: \(second["id"] as! String)"), repaired.stdout)
        let after = try jsonObject(try run(["show", second["id"] as! String, "--json"]).stdout)
        XCTAssertEqual(after["playbackGain"] as? Double ?? 0, second["playbackGain"] as? Double ?? 1, accuracy: 0.1)
    }

    func testImportTrimsSilenceAtTheEnds() throws {
        let voice = try speech("padded-voice", gain: -12)
        let plain = try XCTUnwrap(try ffprobe(voice).duration as Double?)
        let padded = try speech("padded", gain: -12, padding: (2.0, 3.0))
        let row = try imported(padded, ["--trim-silence"])
        let duration = try XCTUnwrap(row["duration"] as? Double)
        // espeak's own lead-in and tail are quiet too: the trimmed take is the words plus 0.2 s each side.
        XCTAssertLessThanOrEqual(duration, plain + 0.45)
        XCTAssertGreaterThan(duration, plain - 1.0)
        let file = root + "/" + (row["filePath"] as! String)
        XCTAssertEqual(try ffprobe(file).duration, duration, accuracy: 0.03, "the row's length is the file's")
        let untouched = try imported(padded)
        XCTAssertEqual(
            untouched["duration"] as? Double ?? 0, plain + 5, accuracy: 0.05, "without the flag nothing is trimmed")
    }

    func testRecordTrimsSilenceWithoutAsking() throws {
        // The file plugin reads a raw file as the microphone: 1.5 s of silence, the phrase, 2 s of silence.
        let mic = base + "/mic.raw"
        let made = try runProcess(
            "/usr/bin/sox",
            [
                "-t", "raw", "-r", "48000", "-e", "signed", "-b", "16", "-c", "1", phraseFixture,
                "-t", "raw", mic, "pad", "1.5", "2",
            ])
        XCTAssertEqual(made.status, 0, made.stderr)
        let phrase =
            Double((try FileManager.default.attributesOfItem(atPath: phraseFixture)[.size] as? Int) ?? 0) / 96_000
        let result = try run(
            ["record", "audio", "--mic", "cravey_file", "--max-seconds", "30", "--trim-silence", "--yes", "--json"],
            environment: ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_INFILE": mic])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("trimmed"), result.stderr)
        let row = try jsonObject(result.stdout)
        let duration = try XCTUnwrap(row["duration"] as? Double)
        XCTAssertLessThan(duration, phrase + 0.5, "the 3.5 s of silence are gone (the phrase is \(phrase) s)")
        XCTAssertGreaterThan(duration, phrase * 0.8)
        XCTAssertEqual(try ffprobe(root + "/" + (row["filePath"] as! String)).duration, duration, accuracy: 0.03)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: root + "/.incoming"), [])
    }

    func testTrimKeepsExactlyTheSpanAndTheDetails() throws {
        let row = try imported(try speech("to-trim", gain: -12), ["--title", "Hold on", "--notes", "for later"])
        let id = row["id"] as! String
        XCTAssertEqual(
            try run(
                ["play", id, "--speaker", "cravey_capture"],
                environment: ["ALSA_CONFIG_PATH": testALSAConfig, "CRAVEY_ALSA_OUTFILE": "/dev/null"]
            ).status, 0)
        let source = try decodeAudio(root + "/" + (row["filePath"] as! String))
        let trimmed = try run(["trim", id, "--start", "0:01.25", "--end", "3.5", "--json"])
        XCTAssertEqual(trimmed.status, 0, trimmed.stderr)
        let after = try jsonObject(trimmed.stdout)
        XCTAssertEqual(after["duration"] as? Double ?? 0, 2.25, accuracy: 1024.0 / 48_000, "±1 audio frame")
        let file = root + "/" + (after["filePath"] as! String)
        XCTAssertEqual(try ffprobe(file).duration, 2.25, accuracy: 1024.0 / 48_000)
        XCTAssertEqual(after["title"] as? String, "Hold on")
        XCTAssertEqual(after["notes"] as? String, "for later")
        XCTAssertEqual(after["playCount"] as? Int, 1, "the play count is kept")
        XCTAssertNotEqual(after["loudness"] as? Double, nil)
        // The kept sound is the span's: it matches the source from 1.25 s on (AAC is lossy: by level).
        let kept = try decodeAudio(file)
        let window = 4800
        for offset in stride(from: 4800, to: min(kept.count, 96_000) - window, by: 9600) {
            let a = rmsDecibels(kept[offset..<offset + window])
            let b = rmsDecibels(source[60_000 + offset..<60_000 + offset + window])
            XCTAssertEqual(a, b, accuracy: 1.5, "window at \(offset)")
        }
        // Bad spans: one line, nothing changed.
        for (args, text) in [
            (["--start", "2", "--end", "1"], "start must come before"), (["--end", "9"], "past the recording's end"),
            (["--start", "banana"], "must be seconds"), (["--start", "1", "--end", "1.05"], "at least"),
        ] {
            let refused = try run(["trim", id] + args)
            XCTAssertNotEqual(refused.status, 0)
            XCTAssertEqual(refused.stderr.split(separator: "\n").count, 1, refused.stderr)
            XCTAssertTrue(refused.stderr.contains(text), refused.stderr)
        }
        XCTAssertEqual(
            try jsonObject(try run(["show", id, "--json"]).stdout)["duration"] as? Double ?? 0, 2.25, accuracy: 0.03)
    }

    func testTrimAVideoStartsAtTheRightPictureAndKeepsSync() throws {
        // A counter clip: each second shows a different picture; a beep marks 2.0–2.2 s.
        let clip = base + "/counter.mp4"
        let made = try runProcess(
            "/usr/bin/ffmpeg",
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc=size=320x180:rate=25:d=5",
                "-f", "lavfi", "-i", "sine=f=880:d=5", "-filter_complex", "[1]volume='between(t,2,2.2)':eval=frame[a]",
                "-map", "0", "-map", "[a]", "-c:v", "libx264", "-c:a", "aac", clip,
            ])
        XCTAssertEqual(made.status, 0, made.stderr)
        let row = try imported(clip)
        let id = row["id"] as! String
        let trimmed = try run(["trim", id, "--start", "1.5", "--end", "4", "--json"])
        XCTAssertEqual(trimmed.status, 0, trimmed.stderr)
        let after = try jsonObject(trimmed.stdout)
        let file = root + "/" + (after["filePath"] as! String)
        let probe = try ffprobe(file)
        XCTAssertEqual(probe.duration, 2.5, accuracy: 0.05)
        XCTAssertEqual(Set(probe.codecs), ["h264", "aac"])
        // The first picture is the source's picture at 1.5 s.
        func gray(_ path: String, at seconds: Double) throws -> [UInt8] {
            let out = base + "/g-\(UUID().uuidString.prefix(6)).raw"
            let r = try runProcess(
                "/usr/bin/ffmpeg",
                [
                    "-v", "error", "-y", "-ss", String(seconds), "-i", path, "-frames:v", "1",
                    "-vf", "scale=160:90", "-f", "rawvideo", "-pix_fmt", "gray", out,
                ])
            XCTAssertEqual(r.status, 0, r.stderr)
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))
        }
        func difference(_ a: [UInt8], _ b: [UInt8]) -> Double {
            Double(zip(a, b).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(max(1, a.count))
        }
        let first = try gray(file, at: 0)
        let original = root + "/" + (row["filePath"] as! String)
        _ = original
        let sourceAt = try gray(clip, at: 1.5)
        let sourceElsewhere = try gray(clip, at: 3.5)
        XCTAssertLessThan(difference(first, sourceAt), 4, "the first picture is the one shown at 1.5 s")
        XCTAssertGreaterThan(difference(first, sourceElsewhere), 4)
        // The beep (2.0 s in the source) is at 0.5 s in the trim: sound moved with the pictures.
        let sound = try decodeAudio(file)
        let beepStart = sound.indices.first { abs(sound[$0]) > 0.1 } ?? -1
        XCTAssertEqual(Double(beepStart) / 48_000, 0.5, accuracy: 0.03)
        let thumb = root + "/" + (after["thumbnailPath"] as? String ?? "none")
        XCTAssertTrue(FileManager.default.fileExists(atPath: thumb), "a new thumbnail")
    }

    func testAKilledTrimLeavesTheOldOrTheNewRecordingNeverNeither() throws {
        let pristine = base + "/pristine"
        let row = try runProcess(cravey, ["import", try speech("kill", gain: -12), "--json", "--library", pristine])
        XCTAssertEqual(row.status, 0, row.stderr)
        let id = try jsonObject(row.stdout)["id"] as! String
        let oldDuration = try jsonObject(row.stdout)["duration"] as! Double
        let name = "Recordings/audio_\(id).m4a"
        let oldBytes = try Data(contentsOf: URL(fileURLWithPath: pristine + "/" + name))
        var sawOld = 0, sawNew = 0, step = 1
        while step < 40 {
            let lib = base + "/kill-\(step)"
            XCTAssertEqual(try runProcess("/bin/cp", ["-a", pristine, lib]).status, 0)
            let killed = try runProcess(
                cravey, ["trim", id, "--start", "1", "--end", "2.5", "--library", lib],
                environment: ["CRAVEY_FAULT_KILL_AT": String(step)])
            let listed = try runProcess(cravey, ["show", id, "--json", "--library", lib])
            XCTAssertEqual(listed.status, 0, "step \(step): the recording is listed: \(listed.stderr)")
            let now = try jsonObject(listed.stdout)
            let bytes = try Data(contentsOf: URL(fileURLWithPath: lib + "/" + name))
            let duration = now["duration"] as? Double ?? 0
            if bytes == oldBytes {
                sawOld += 1
                XCTAssertEqual(duration, oldDuration, "step \(step): the old file with the old row")
            } else {
                sawNew += 1
                XCTAssertEqual(duration, 1.5, accuracy: 0.03, "step \(step): the new file with the new row")
                XCTAssertEqual(try ffprobe(lib + "/" + name).duration, 1.5, accuracy: 0.03)
            }
            let check = try runProcess(cravey, ["check", "--library", lib])
            XCTAssertEqual(check.status, 0, "step \(step): \(check.stdout)")
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: lib + "/.incoming"), [], "step \(step)")
            try? FileManager.default.removeItem(atPath: lib)
            if killed.status != -SIGKILL { break }
            step += 1
        }
        print(
            "trim killed at \(step - 1) steps: \(sawOld) times the old recording, \(sawNew) times the new one, never neither"
        )
        XCTAssertGreaterThan(sawOld, 3)
        XCTAssertGreaterThan(sawNew, 0)
    }
}
