import FoundationEssentials
import Glibc
import GRDB

/// A `recording` row read by column name, whatever the columns' order and whatever else the query
/// selects. A row is data from disk: a value of the wrong type or invalid UTF-8 (written by
/// another program) is read leniently instead of trapping, and `Validation.problems` reports it;
/// a column the query did not select reads as absent (the waveform, for listings).
extension Recording: FetchableRecord {
    public init(row: Row) {
        func value(_ column: String) -> DatabaseValue.Storage? {
            guard let value = row[column] as DatabaseValue?, !value.isNull else { return nil }
            return value.storage
        }
        func text(_ column: String) -> String? {
            switch value(column) {
            case let .string(string)?: return string
            case let .blob(data)?: return String(decoding: data, as: UTF8.self)
            case let .int64(int)?: return String(int)
            case let .double(double)?: return String(double)
            default: return nil
            }
        }
        func number(_ column: String) -> Double? {
            switch value(column) {
            case let .int64(int)?: return Double(int)
            case let .double(double)?: return double
            default: return nil
            }
        }
        func integer(_ column: String) -> Int? {
            switch value(column) {
            case let .int64(int)?: return Int(int)
            case let .double(double)? where double.isFinite && abs(double) < 1e15: return Int(double)
            default: return nil
            }
        }
        func date(_ column: String) -> Date? { text(column).flatMap(StoredDate.date) }
        var waveform: [UInt8] = []
        if case let .blob(data)? = value("waveform") { waveform = [UInt8](data) }
        var recording = Recording(
            id: text("id").flatMap(UUID.init(uuidString:)) ?? UUID(uuid: UUID_NULL_BYTES),
            createdAt: date("createdAt") ?? Date(millisecondsSince1970: 0),
            kind: text("kind").flatMap(Kind.init(rawValue:)) ?? .audio,
            title: text("title") ?? "",
            notes: text("notes"),
            purpose: text("purpose").flatMap(Purpose.init(rawValue:)),
            duration: number("duration") ?? 0,
            filePath: text("filePath") ?? "",
            thumbnailPath: text("thumbnailPath"),
            playCount: integer("playCount") ?? 0,
            lastPlayedAt: date("lastPlayedAt"),
            modifiedAt: date("modifiedAt") ?? Date(millisecondsSince1970: 0),
            media: MediaFacts(
                sizeBytes: Int64(integer("sizeBytes") ?? 0), width: integer("width"), height: integer("height"),
                fps: number("fps"), sampleRate: integer("sampleRate"), channels: integer("channels"),
                waveform: waveform,
                avOffset: number("avOffset"), loudness: number("loudness"), truePeak: number("truePeak"),
                playbackGain: number("playbackGain")),
            checkIn: text("checkinDay").map { day in
                CheckIn(
                    day: day, mood: text("mood").flatMap(CheckIn.Mood.init(rawValue:)) ?? .okay, prompt: text("prompt"))
            })
        recording.forTriggers = (text("forTriggers") ?? "").split(separator: ",").map(String.init)
        self = recording
    }

    func insert(into db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO recording (id, createdAt, kind, title, notes, purpose, duration, filePath,
                  thumbnailPath, playCount, lastPlayedAt, modifiedAt, sizeBytes, width, height, fps,
                  sampleRate, channels, waveform, avOffset, loudness, truePeak, playbackGain, checkinDay, mood, prompt,
                  forTriggers)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                id.uuidString, StoredDate.text(createdAt), kind.rawValue, title, notes, purpose?.rawValue, duration,
                filePath, thumbnailPath, playCount, lastPlayedAt.map(StoredDate.text), StoredDate.text(modifiedAt),
                media.sizeBytes, media.width, media.height,
                media.fps, media.sampleRate, media.channels, Data(media.waveform), media.avOffset,
                media.loudness, media.truePeak, media.playbackGain, checkIn?.day, checkIn?.mood.rawValue,
                checkIn?.prompt, forTriggers.joined(separator: ","),
            ])
    }
}

private let UUID_NULL_BYTES: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
