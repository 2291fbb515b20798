import ArgumentParser
import CraveyLibrary
import CraveyMedia
import Foundation

extension Cravey {
    /// `cravey devices`: the microphones and cameras cravey can record from.
    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the microphones (ALSA) and cameras (V4L2) cravey can record from; * marks the defaults.")

        @OptionGroup var output: OutputOptions

        func run() throws {
            let mics = try AudioDevice.microphones()
            let cameras = CameraInfo.all()
            if output.json {
                let micItems = mics.map { mic in
                    "{\"name\":\(RecordingExport.jsonString(mic.name)),\"description\":\(RecordingExport.jsonString(mic.description)),\"default\":\(mic.isDefault)}"
                }
                let cameraItems = cameras.map { camera in
                    let modes = Self.listedModes(camera).map { mode in
                        "{\"width\":\(mode.width),\"height\":\(mode.height),\"fps\":\(mode.fps),\"format\":\(RecordingExport.jsonString(mode.pixelFormat))}"
                    }
                    return "{\"node\":\(RecordingExport.jsonString(camera.path)),\"card\":\(RecordingExport.jsonString(camera.card)),"
                        + "\"driver\":\(RecordingExport.jsonString(camera.driver)),\"bus\":\(RecordingExport.jsonString(camera.bus)),"
                        + "\"byId\":\(camera.byIdPath.map(RecordingExport.jsonString) ?? "null"),\"default\":\(camera.isDefault),"
                        + "\"modes\":[\(modes.joined(separator: ","))]}"
                }
                print("{\"microphones\":[" + micItems.joined(separator: ",") + "],\"cameras\":[" + cameraItems.joined(separator: ",") + "]}")
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
                print("  \(camera.isDefault ? "*" : " ") \(Terminal.accent(camera.path))  \(camera.card)  \(Terminal.dim(camera.bus))")
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
