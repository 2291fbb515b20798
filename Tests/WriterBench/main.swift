// writer-bench: feeds raw YUYV frames and S16 mono samples through cravey's writer exactly as the
// recorder does (fragmented .mov, flushed each second), then finalizes (drain + remux) and makes
// the thumbnail, timing each stage. For Tests/bench/video.sh.
//
//   writer-bench VIDEO.yuyv WIDTH HEIGHT FPS AUDIO.s16 SECONDS PRESET THREADS OUTDIR
//
// `writer-bench loudness FILE` instead measures a file as a save does (`SoundAnalysis`: waveform,
// EBU R128 loudness and true peak, playback gain), for Tests/bench/loudness.sh.
// `writer-bench transcribe FILE [whisper|pocketsphinx]` recognizes a file's speech as a transcript
// is made (model load, decode to 16 kHz, cut at pauses, the engine) and prints its words on one
// line, for Tests/bench/transcribe.sh.
import CraveyMedia
import Foundation

let args = CommandLine.arguments
if args.count == 3 && args[1] == "loudness" {
    do {
        let analysis = try SoundAnalysis(file: args[2])
        let l = analysis.loudness
        print(
            String(
                format: "I: %.1f LUFS  true peak: %.1f dBTP  gain: %+.1f dB", l.integrated ?? -99, l.truePeak,
                l.playbackGain ?? 0))
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
}
if (args.count == 3 || args.count == 4) && args[1] == "transcribe" {
    do {
        let engine: SpeechEngine
        if args.count == 4 && args[3] == "whisper" {
            guard
                case let .installed(installation) = WhisperInstallation.find(
                    named: ProcessInfo.processInfo.environment["CRAVEY_WHISPER"])
            else {
                FileHandle.standardError.write(
                    Data("no Whisper engine next to the build (bash Whisper/install.sh .build/whisper)\n".utf8))
                exit(1)
            }
            engine = WhisperRecognizer(installation)
        } else {
            engine = try PocketSphinxRecognizer()
        }
        let speech = try engine.recognize(path: args[2])
        (engine as? WhisperRecognizer)?.finish()
        print(speech?.words.map(\.word).joined(separator: " ") ?? "")
        exit(0)
    } catch {
        FileHandle.standardError.write(Data("\(error)\n".utf8))
        exit(1)
    }
}
guard args.count == 10, let width = Int(args[2]), let height = Int(args[3]), let fps = Int(args[4]),
    let seconds = Int(args[6])
else {
    FileHandle.standardError.write(
        Data("usage: writer-bench VIDEO.yuyv WIDTH HEIGHT FPS AUDIO.s16 SECONDS PRESET THREADS OUTDIR\n".utf8))
    exit(2)
}
// Inputs are read a frame at a time into one buffer (as a camera's ring would hand them over), so
// the peak RSS is the writer's, not the input file's.
let videoFD = open(args[1], O_RDONLY), audioFD = open(args[5], O_RDONLY)
guard videoFD >= 0, audioFD >= 0 else { FileHandle.standardError.write(Data("cannot open the inputs\n".utf8)); exit(1) }
let frameBytes = width * height * 2
var frameBuffer = [UInt8](repeating: 0, count: frameBytes)
var sampleBuffer = [Int16](repeating: 0, count: 48_000)
/// Reads exactly `count` bytes, starting the file over at its end.
func readLooping(_ fd: Int32, _ pointer: UnsafeMutableRawPointer, _ count: Int) {
    var got = 0
    while got < count {
        let n = read(fd, pointer + got, count - got)
        if n <= 0 { lseek(fd, 0, SEEK_SET); continue }
        got += n
    }
}
let out = args[9]
let part = out + "/bench.mov.part", final = out + "/bench.mov", thumb = out + "/bench.jpg"
for path in [part, final, thumb] { unlink(path) }

// PRESET and THREADS "default" take the recorder's own settings.
var encoder = VideoEncoderSettings.default
if args[7] != "default" { encoder.preset = args[7] }
if let threads = Int(args[8]) { encoder.threads = threads }
if let params = ProcessInfo.processInfo.environment["CRAVEY_BENCH_X264"] { encoder.x264Params = params }
print("encoder preset=\(encoder.preset) threads=\(encoder.threads) x264-params=\(encoder.x264Params)")

func now() -> Double { Double(monotonicNanoseconds()) / 1e9 }
let started = now()
let writer = try MediaWriter(
    videoPath: part, inputWidth: width, inputHeight: height, inputIsYUYV: true,
    size: VideoSize.fitting(width: width, height: height), fps: fps, sampleRate: 48_000,
    encoder: encoder)
let samplesPerFrame = 48_000 / fps
let file = FileHandle(forUpdatingAtPath: part)!
var samples = [Float](repeating: 0, count: samplesPerFrame)
for frame in 0..<(seconds * fps) {
    frameBuffer.withUnsafeMutableBytes { readLooping(videoFD, $0.baseAddress!, frameBytes) }
    try frameBuffer.withUnsafeBytes { try writer.writeVideo($0, at: Int64(frame) * 1_000_000 / Int64(fps)) }
    sampleBuffer.withUnsafeMutableBytes { readLooping(audioFD, $0.baseAddress!, samplesPerFrame * 2) }
    for i in 0..<samplesPerFrame { samples[i] = Float(sampleBuffer[i]) / 32768 }
    try writer.write(samples)
    if frame % fps == fps - 1 {  // once a second, as the recorder does
        try writer.flush()
        fsync(file.fileDescriptor)
    }
}
let encoded = now()
try writer.finish()
try MediaFile.remux(part, to: final)
let finalized = now()
try Thumbnailer.make(from: final, to: thumb)
let thumbnailed = now()
print(
    String(
        format: "encode_s=%.3f finalize_s=%.3f thumbnail_s=%.3f frames=%d", encoded - started, finalized - encoded,
        thumbnailed - finalized, writer.videoFramesWritten))
