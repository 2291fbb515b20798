import ArgumentParser
import CraveyLibrary
import CraveyMedia
import Foundation

extension Cravey {
    /// `cravey devices`: the microphones cravey can record from.
    struct Devices: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the microphones (ALSA capture devices) cravey can record from.")

        @OptionGroup var output: OutputOptions

        func run() throws {
            let mics = try AudioDevice.microphones()
            if output.json {
                let items = mics.map { mic in
                    "{\"name\":\(RecordingExport.jsonString(mic.name)),\"description\":\(RecordingExport.jsonString(mic.description)),\"default\":\(mic.isDefault)}"
                }
                print("{\"microphones\":[" + items.joined(separator: ",") + "]}")
                return
            }
            print(Terminal.bold("Microphones") + Terminal.dim("  (use with: cravey record audio --mic NAME)"))
            if mics.isEmpty { print("  none found — see udev-notes.md") }
            for mic in mics {
                print("  \(mic.isDefault ? "*" : " ") \(Terminal.accent(mic.name))  \(Terminal.dim(mic.description))")
            }
        }
    }
}
