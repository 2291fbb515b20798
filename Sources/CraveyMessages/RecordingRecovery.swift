import CraveyLibrary
import CraveyMedia
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Turns a recording interrupted by a crash, kill -9 or power cut into a listed recording.
///
/// The library finds the temporary fragmented file (`Staging.Role.part` in `.incoming/`,
/// no longer locked by a live recorder) when it next opens, and calls this: every complete
/// fragment is remuxed into a regular file and saved as "Recovered recording <date>", or nothing
/// is saved when no packet is playable.
public enum RecordingRecovery {
    /// What the library needs from this floor to recover recordings: given to every library the
    /// command line opens.
    public static let media = Library.MediaRecovery(
        recoverPartial: { library, path in try recover(path, into: library) },
        inspect: { path in try inspect(path) },
        measure: { path in
            let loudness = try Loudness.measure(file: path)
            return (loudness.integrated, loudness.truePeak, loudness.playbackGain)
        },
        writeTags: { input, output, tags in
            do {
                try MediaFile.retag(input, to: output, tags: tags)
                return true
            } catch let error as MediaError where error.kind == .invalidData {
                return false
            } catch let error as MediaError where error.errno == ENOSPC {
                // A full disk is said as the library says it (not as a database problem), so that
                // what waits for space is known as such.
                throw LibraryError.system(operation: "write the tags into", path: input, errno: ENOSPC)
            }
        },
        readTag: { path, key in try MediaFile.tag(key, of: path) },
        thumbnail: { video, output in try Thumbnailer.make(from: video, to: output) })

    /// Recovers one temporary recording. Returns nil only when the file holds no complete packet
    /// at all; any other failure (a full or read-only disk, an I/O error) throws, and the file is
    /// kept for a later run: a take is never removed because something transient failed.
    static func recover(_ path: String, into library: Library) throws -> Recording? {
        guard let (role, id, kind) = Staging.parse((path as NSString).lastPathComponent), role == .part else {
            return nil
        }
        let final = try library.stage(.final, id: id, kind: kind)
        let info: MediaInfo
        do {
            info = try MediaFile.remux(path, to: final.path).info
        } catch let error as MediaError where error.kind == .invalidData {
            library.discard(final)
            return nil  // nothing playable: the library removes the temporary file
        } catch {
            library.discard(final)
            throw error
        }
        guard info.duration > 0 else {
            library.discard(final)
            return nil
        }
        var modified = stat()
        let endedAt = stat(path, &modified) == 0 ? Date(timeIntervalSince1970: Double(modified.st_mtim.tv_sec)) : Date()
        let startedAt = endedAt.addingTimeInterval(-info.duration)
        let (sound, thumb) = library.readFinished(final.path, id: id, kind: kind, hasSound: info.audioCodec != nil)
        return try library.save(
            final, thumbnail: thumb, kind: kind, draft: .init(title: Validation.recoveredTitle(for: startedAt)),
            duration: min(info.duration, Validation.maxDuration),
            media: MediaFacts(info, sound: sound),
            id: id, createdAt: startedAt)
    }

    /// A finished file's length and facts, for listing it again; nil when nothing is playable.
    static func inspect(_ path: String) throws -> (duration: Double, media: MediaFacts)? {
        let info: MediaInfo
        do {
            info = try MediaFile.probe(path)
        } catch let error as MediaError where error.kind == .invalidData {
            return nil
        }
        guard info.duration > 0, info.audioCodec != nil || info.videoCodec != nil else { return nil }
        return (info.duration, MediaFacts(info, sound: info.audioCodec != nil ? try? SoundAnalysis(file: path) : nil))
    }
}

extension MediaFacts {
    /// The facts a probe read from a finished file, with what only the recorder knows.
    init(_ info: MediaInfo, waveform: [UInt8] = [], avOffset: Double? = nil, loudness: Loudness? = nil) {
        self.init(
            width: info.width, height: info.height, fps: info.fps, sampleRate: info.sampleRate,
            channels: info.channels, waveform: waveform, avOffset: avOffset,
            loudness: loudness?.integrated, truePeak: loudness?.truePeak, playbackGain: loudness?.playbackGain)
    }

    /// The facts of a finished file, with the waveform and loudness read from its sound (a silent
    /// video has neither: nil).
    init(_ info: MediaInfo, sound: SoundAnalysis?, avOffset: Double? = nil) {
        self.init(info, waveform: sound?.waveform ?? [], avOffset: avOffset, loudness: sound?.loudness)
    }
}
