import ArgumentParser
import CraveyLibrary
import CraveyMedia
import Foundation
import TerminalKit

extension Cravey {
    /// `cravey devices`: the microphones and cameras cravey can record from.
    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "devices",
            abstract: "List the microphones (ALSA) and cameras (V4L2) cravey can record from; * marks the defaults.")

        @OptionGroup var output: OutputOptions

        func run() throws {
            let mics = try AudioDevice.microphones()
            let cameras = CameraInfo.all()
            if output.json {
                struct Microphone: Encodable { var name, description: String; var `default`: Bool }
                struct Mode: Encodable { var width, height: Int; var fps: Double; var format: String }
                struct Camera: Encodable {
                    var node, card, driver, bus: String
                    var byId: String?
                    var `default`: Bool
                    var modes: [Mode]
                    enum CodingKeys: String, CodingKey { case node, card, driver, bus, byId, `default`, modes }
                    func encode(to encoder: Encoder) throws {
                        var c = encoder.container(keyedBy: CodingKeys.self)
                        try c.encode(node, forKey: .node)
                        try c.encode(card, forKey: .card)
                        try c.encode(driver, forKey: .driver)
                        try c.encode(bus, forKey: .bus)
                        try c.encode(byId, forKey: .byId)  // null without a by-id link
                        try c.encode(`default`, forKey: .default)
                        try c.encode(modes, forKey: .modes)
                    }
                }
                /// The x264 settings a video recording is encoded with (what the webcam benchmark
                /// gives the ffmpeg CLI it compares with).
                struct EncoderSettings: Encodable { var preset: String; var crf, threads: Int; var x264Params: String }
                struct Result: Encodable {
                    var microphones: [Microphone]; var cameras: [Camera]; var encoder: EncoderSettings
                }
                let settings = VideoEncoderSettings.default
                try JSONOutput.print(
                    Result(
                        microphones: mics.map {
                            Microphone(name: $0.name, description: $0.description, default: $0.isDefault)
                        },
                        cameras: cameras.map { camera in
                            Camera(
                                node: camera.path, card: camera.card, driver: camera.driver, bus: camera.bus,
                                byId: camera.byIdPath,
                                default: camera.isDefault,
                                modes: Self.listedModes(camera).map {
                                    Mode(width: $0.width, height: $0.height, fps: $0.fps, format: $0.pixelFormat)
                                })
                        },
                        encoder: EncoderSettings(
                            preset: settings.preset, crf: settings.crf, threads: settings.threads,
                            x264Params: settings.x264Params)))
                return
            }
            print(Terminal.bold("Microphones") + Terminal.dim("  (cravey record audio --mic NAME)"))
            if mics.isEmpty { print("  none found — see udev-notes.md") }
            for mic in mics {
                print("  \(mic.isDefault ? "*" : " ") \(Terminal.accent(mic.name))  \(Terminal.dim(mic.description))")
            }
            print(Terminal.bold("Cameras"))
            if cameras.isEmpty { print("  none found — see udev-notes.md") }
            for camera in cameras {
                print(
                    "  \(camera.isDefault ? "*" : " ") \(Terminal.accent(camera.path))  \(camera.card)  \(Terminal.dim(camera.bus))"
                )
                if let byId = camera.byIdPath { print("      \(Terminal.dim(byId))") }
                for line in Self.modeLines(Self.listedModes(camera)) { print("      " + line) }
            }
        }

        /// The modes cravey records at (up to 1280×720), largest first.
        static func listedModes(_ camera: CameraInfo) -> [CameraMode] {
            camera.modes.filter(\.fitsLimit).sorted { a, b in
                a.pixels != b.pixels ? a.pixels > b.pixels : a.fps > b.fps
            }
        }

        /// One line per frame size: `640x360 @ 60/30/25 fps  YUYV UYVY`.
        static func modeLines(_ modes: [CameraMode]) -> [String] {
            var order: [String] = []
            var bySize: [String: [CameraMode]] = [:]
            for mode in modes {
                let size = "\(mode.width)x\(mode.height)"
                if bySize[size] == nil { order.append(size) }
                bySize[size, default: []].append(mode)
            }
            return order.map { size in
                let group = bySize[size]!
                let rates = Set(group.map(\.fps)).sorted(by: >).map { (fps: Double) -> String in
                    fps.rounded() == fps ? String(Int(fps)) : String(fps)
                }
                let formats = Set(group.map(\.pixelFormat)).sorted().joined(separator: " ")
                return "\(size) @ \(rates.joined(separator: "/")) fps  " + Terminal.dim(formats)
            }
        }
    }
}
