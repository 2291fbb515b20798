// swift-tools-version:6.0
//
// cravey — short audio/video messages to your future self, recorded and played from the shell.
//
// The targets are floors, bottom up; a target depends only on floors below it:
//   1. CALSA, CV4L2, CFFmpeg, CSDL, CEBUR128, CDBus, CSphinx, CCairo — C shims over libasound,
//                       libv4l2, the FFmpeg libraries, SDL2, libebur128 (loudness), sd-bus (desktop
//                       notifications), PocketSphinx (offline speech recognition) and cairo with
//                       pango (PDF pages), each opening its libraries on first use through CLoader;
//                       CStandardOutput, whether stdio's standard output took every write
//   2. CraveyMedia    — audio and video input and output, level meter, loudness, limiter, writer,
//                       decoders, thumbnailer, probe and remux, the video window, device diagnostics,
//                       speech recognition (transcripts with word times: Whisper through cravey's
//                       helper program in its private environment, PocketSphinx as the fallback)
//      CraveyDesktop  — the desktop: notifications (the reminder; an offer with actions, waited for), the
//                       reminder's systemd user units, the terminal a screen opens in, GNOME's shortcuts
//      CraveyDocument — a PDF drawn in cravey's own process (shapes and laid-out text; the report)
//   3. CraveyLibrary  — the private recordings library (GRDB store, atomic file store, recovery, check)
//      CraveyRecorder — capture threads on one clock, cap, stop, finalize, into a `RecordingStaging`
//                       (temporary files; no library)
//      CraveyPlayer   — playback to ALSA with pause and skip, and the clock video frames follow
//   4. CraveyMessages — the use cases that join the library to the media: the library as the
//                       recorder's staging, starting a recording (devices and fallbacks), saving,
//                       trimming and discarding a take, import, trim, recovery of interrupted
//                       takes, transcripts and their queue, the check-in's take, playing and
//                       counting a message, the level a recording plays at
//      CraveyTracker  — the craving and use logs (in the library's database), their rules and links
//   5. cravey         — the command-line executable: the root command, Commands/ by subject, Screens/,
//                       Presentation/, Background/ (the transcript worker), Configuration (the
//                       environment, read once); TerminalKit is its toolkit (no product module)
// Tests mirror the modules; `library-driver` (drives library operations in a child process so the
// tests can SIGKILL it at chosen points) and `writer-bench` (the video benchmark) are test-only.
import PackageDescription

let package = Package(
    name: "cravey",
    products: [
        .executable(name: "cravey", targets: ["cravey"])
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
    ],
    targets: [
        // Floor 1: C shims, one concern each. None links its library: each opens it on its first call
        // through CLoader, so the commands that only read the library start without them.
        .target(name: "CLoader"),
        .target(name: "CALSA", dependencies: ["CLoader"]),
        .target(name: "CV4L2", dependencies: ["CLoader"]),
        .target(name: "CFFmpeg", dependencies: ["CLoader"]),
        .target(name: "CSDL", dependencies: ["CLoader"]),
        .target(name: "CEBUR128", dependencies: ["CLoader"]),
        .target(name: "CDBus", dependencies: ["CLoader"]),
        .target(name: "CCairo", dependencies: ["CLoader"]),
        // PocketSphinx's headers include one another by bare name: `forward/` points those names at
        // them (SphinxBase's are found in the multiarch include directory).
        .target(name: "CSphinx", dependencies: ["CLoader"], cSettings: [.headerSearchPath("forward")]),
        // Floor 2: the Swift media layer (no C type escapes it).
        .target(name: "CraveyMedia", dependencies: ["CALSA", "CV4L2", "CFFmpeg", "CSDL", "CEBUR128", "CSphinx"]),
        // Floor 2 too: the desktop (a notification on the session bus, systemd user units), for reminders.
        .target(name: "CraveyDesktop", dependencies: ["CDBus"]),
        // Floor 2 too: documents (a PDF drawn with cairo and pango), for the report.
        .target(name: "CraveyDocument", dependencies: ["CCairo"]),
        // Floor 3: the library, the recorder and the player.
        .target(
            name: "CraveyLibrary",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // SHA-256 of backed-up files: libavutil's av_sha, opened on first use
                "CFFmpeg",
            ]
        ),
        .target(name: "CraveyRecorder", dependencies: ["CraveyMedia"]),
        .target(name: "CraveyPlayer", dependencies: ["CraveyMedia"]),
        // Floor 4: the application layer.
        .target(
            name: "CraveyMessages", dependencies: ["CraveyLibrary", "CraveyMedia", "CraveyRecorder", "CraveyPlayer"]),
        // Floor 4 too: the craving and use logs and the figures drawn from them, in the library's
        // database (no media).
        .target(name: "CraveyTracker", dependencies: ["CraveyLibrary"]),
        // Floor 5: the executable.
        .executableTarget(
            name: "cravey",
            dependencies: [
                "CraveyLibrary",
                "CraveyMessages",
                "CraveyTracker",
                "CraveyRecorder",
                "CraveyPlayer",
                "CraveyMedia",
                "CraveyDesktop",
                "CraveyDocument",
                "TerminalKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            plugins: ["BuildInfo"]
        ),
        // The terminal toolkit: raw mode, the one key reader, stop signals, whole-screen drawing,
        // charts and calm screens. It knows nothing of the product (no product module below it).
        .target(name: "TerminalKit", dependencies: ["CStandardOutput"]),
        // Standard output's stdio stream, for the toolkit to tell whether `print` reached it.
        .target(name: "CStandardOutput"),
        // Writes the commit a build is made from into the executable (`cravey --version`).
        .plugin(name: "BuildInfo", capability: .buildTool()),
        // The video benchmark's writer: raw frames and samples in, the recorder's writer, remux
        // and thumbnailer out (Tests/bench/video.sh compares it with the ffmpeg CLI).
        .executableTarget(
            name: "writer-bench",
            dependencies: ["CraveyMedia"],
            path: "Tests/WriterBench"
        ),
        .executableTarget(
            name: "library-driver",
            dependencies: ["CraveyLibrary", "CraveyLibraryFixtures"],
            path: "Tests/LibraryDriver"
        ),
        // Test-only additions to the library (filling it with opaque bytes).
        .target(name: "CraveyLibraryFixtures", dependencies: ["CraveyLibrary"], path: "Tests/CraveyLibraryFixtures"),
        .target(name: "CraveyTestSupport", path: "Tests/CraveyTestSupport"),
        .testTarget(
            name: "CraveyLibraryTests",
            dependencies: ["CraveyLibrary", "CraveyLibraryFixtures", "CraveyTestSupport", "library-driver"]
        ),
        .testTarget(
            name: "CraveyMediaTests",
            dependencies: ["CraveyMedia", "CraveyTestSupport"]
        ),
        .testTarget(
            name: "CraveyPlayerTests",
            dependencies: ["CraveyPlayer", "CraveyMedia", "CraveyTestSupport"]
        ),
        .testTarget(
            name: "CraveyTrackerTests",
            dependencies: [
                "CraveyTracker", "CraveyLibrary", "CraveyLibraryFixtures", "CraveyTestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .testTarget(
            name: "CraveyMessagesTests",
            dependencies: ["CraveyMessages", "CraveyRecorder", "CraveyLibrary", "CraveyMedia", "CraveyTestSupport"]
        ),
        .testTarget(
            name: "CraveyRecorderTests",
            dependencies: ["CraveyRecorder"]
        ),
        // The built program end to end: every command, recording, signals, crash recovery.
        .testTarget(
            name: "CraveyTests",
            dependencies: [
                "CraveyLibrary", "CraveyLibraryFixtures", "CraveyTracker", "CraveyMedia", "CraveyTestSupport",
                "TerminalKit", "cravey",
            ]
        ),
        // The interactive screens, in tmux.
        .testTarget(
            name: "CraveyScreenTests",
            dependencies: [
                "CraveyLibrary", "CraveyMedia", "CraveyPlayer", "CraveyTracker", "CraveyTestSupport", "TerminalKit",
                "cravey",
            ]
        ),
        // The fault campaign and hostile input, as root: full disks, other users, kill -9 at every step.
        .testTarget(
            name: "CraveyFaultTests",
            dependencies: ["CraveyLibrary", "CraveyLibraryFixtures", "CraveyMedia", "CraveyTestSupport", "cravey"]
        ),
        // Transcripts with the real engines (Whisper, PocketSphinx).
        .testTarget(name: "CraveyTranscriptTests", dependencies: ["CraveyTestSupport", "cravey"]),
        // The device suite, run inside the VM rig (Tests/vm/rig.sh) by VMRigTests.
        .testTarget(name: "CraveyVMTests", dependencies: ["CraveyMedia", "CraveyTestSupport", "cravey"]),
        // The terminal toolkit alone: keys, calm screens, the key reader.
        .testTarget(name: "TerminalKitTests", dependencies: ["TerminalKit"]),
    ]
)
