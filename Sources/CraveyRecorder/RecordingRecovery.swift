import CraveyLibrary
import CraveyMedia
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Turns a recording interrupted by a crash, kill -9 or power cut into a listed recording.
///
/// The library finds the temporary fragmented file (`.incoming/rec_<kind>_<UUID>.<ext>.part`,
/// no longer locked by a live recorder) when it next opens, and calls this: every complete
/// fragment is remuxed into a regular file and saved as "Recovered recording <date>", or nothing
/// is saved when no packet is playable.
public enum RecordingRecovery {
    /// Registers the recoverer with the library (call before opening a library).
    public static func install() {
        Library.partialRecordingRecoverer = { library, path in try recover(path, into: library) }
    }

    static func recover(_ path: String, into library: Library) throws -> Recording? {
        let name = (path as NSString).lastPathComponent
        guard let id = Library.recordingID(inTemporaryName: name) else { return nil }
        let kind: Recording.Kind = name.hasPrefix("rec_video_") ? .video : .audio
        let final = try library.makeStagedFile(named: "save_\(id.uuidString).\(kind.fileExtension)")
        let info: MediaInfo
        do {
            try MediaFile.remux(path, to: final.path)
            info = try MediaFile.probe(final.path)
            guard info.duration > 0 else { throw RecorderError.nothingRecorded(kind == .video) }
        } catch {
            library.discard(final)
            return nil  // nothing playable: the library removes the temporary file
        }
        var modified = stat()
        let endedAt = stat(path, &modified) == 0 ? Date(timeIntervalSince1970: Double(modified.st_mtim.tv_sec)) : Date()
        let startedAt = endedAt.addingTimeInterval(-info.duration)
        let thumb = kind == .video ? library.stageThumbnail(of: final.path, id: id) : nil
        return try library.save(
            final, thumbnail: thumb, kind: kind, draft: .init(title: title(for: startedAt)),
            duration: min(info.duration, Validation.maxDuration),
            media: MediaFacts(width: info.width, height: info.height, fps: info.fps,
                              sampleRate: info.sampleRate, channels: info.channels, waveform: waveform(of: final.path)),
            id: id, createdAt: startedAt)
    }

    /// The waveform of a finished file, decoded again (the recorder that measured it live is gone).
    static func waveform(of path: String) -> [UInt8] {
        guard let decoder = try? AudioDecoder(path: path) else { return [] }
        var builder = WaveformBuilder(sampleRate: decoder.sampleRate)
        while let block = try? decoder.read(frames: 4800), !block.isEmpty {
            builder.add(block.map { Float($0) / 32768 })
        }
        return builder.finish()
    }

    /// `Recovered recording Oct 25, 2025 3:42 PM`, shortened to fit the 40-character limit.
    public static func title(for date: Date) -> String {
        let full = Validation.automaticTitle(for: date, prefix: "Recovered recording")
        if full.count <= Validation.maxTitleLength { return full }
        return full.replacingOccurrences(of: ", \(Calendar.current.component(.year, from: date))", with: "")
    }
}
