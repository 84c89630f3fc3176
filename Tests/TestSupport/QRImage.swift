import Foundation

/// A QR code as a picture a camera would see, read by a real decoder: zbarimg (Debian's zbar-tools).
public enum QRImage {
    /// Reads QR codes drawn as terminal lines in half blocks (▀ ▄ █, ANSI colours ignored): each character is one
    /// module wide and two tall. Returns what the decoder found.
    public static func decodeTerminalLines(_ lines: [String], folder: String) throws -> String {
        var rows: [[Bool]] = []
        for line in lines {
            let text = line.replacing(/\u{1B}\[[0-9;]*m/, with: "")
            rows.append(text.map { $0 == "█" || $0 == "▀" })
            rows.append(text.map { $0 == "█" || $0 == "▄" })
        }
        return try decode(rows: rows, folder: folder)
    }

    /// Draws `rows` of modules (`true`: dark), `scale` pixels each with four light modules around them, as a
    /// greyscale image, and returns what zbarimg reads in it.
    public static func decode(rows: [[Bool]], scale: Int = 4, folder: String) throws -> String {
        let width = (rows.map(\.count).max() ?? 0) + 8, height = rows.count + 8
        var pixels = [UInt8](repeating: 255, count: width * scale * height * scale)
        for (row, modules) in rows.enumerated() {
            for (column, dark) in modules.enumerated() where dark {
                for y in 0..<scale {
                    let start = ((row + 4) * scale + y) * width * scale + (column + 4) * scale
                    pixels.replaceSubrange(start..<start + scale, with: repeatElement(0, count: scale))
                }
            }
        }
        let path = "\(folder)/qr-\(UUID().uuidString).pgm"
        try (Data("P5\n\(width * scale) \(height * scale)\n255\n".utf8) + Data(pixels)).write(to: URL(fileURLWithPath: path))
        let result = try runProgram("/usr/bin/zbarimg", ["--quiet", "--raw", path])
        guard result.status == 0 else { throw SubprocessError("zbarimg found no code (\(result.status)): \(result.error)") }
        return result.output.trimmingCharacters(in: .newlines)
    }
}
