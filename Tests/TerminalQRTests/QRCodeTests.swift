import Foundation
import Testing
import TestSupport
import TerminalQR

/// libqrencode's codes as trackctl web pair prints them, read back by a real decoder (zbarimg, from zbar-tools).
struct QRCodeTests {
    let address = "https://192.168.4.1:8443/pair?code=48213907"

    @Test func aDecoderReadsTheAddressBackFromTheCode() throws {
        let folder = try TemporaryFolder()
        let code = try QRCode(address)
        #expect(code.size >= 21 && (code.size - 17) % 4 == 0, "a QR code's side is 17 + 4 × its version")
        let rows = (0..<code.size).map { row in (0..<code.size).map { code[row, $0] } }
        #expect(try QRImage.decode(rows: rows, folder: folder.path) == address)
    }

    @Test func theTerminalLinesHoldEveryModuleOnceAndADecoderReadsThem() throws {
        let folder = try TemporaryFolder()
        let code = try QRCode(address)
        let lines = code.terminalLines(quietZone: 2)
        #expect(lines.count == (code.size + 4 + 1) / 2)
        // Back from the characters to modules: each character is one column and two rows.
        var rows: [[Bool]] = []
        for line in lines {
            #expect(line.hasPrefix("\u{1B}[30;107m") && line.hasSuffix("\u{1B}[0m"), "black on white, then reset")
            let text = line.replacing(/\u{1B}\[[0-9;]*m/, with: "")
            #expect(text.count == code.size + 4)
            rows.append(text.map { $0 == "█" || $0 == "▀" })
            rows.append(text.map { $0 == "█" || $0 == "▄" })
        }
        for row in -2..<(code.size + 2) {
            for column in -2..<(code.size + 2) {
                #expect(rows[row + 2][column + 2] == code[row, column], "module \(row), \(column)")
            }
        }
        #expect(try QRImage.decodeTerminalLines(lines, folder: folder.path) == address)
    }

    @Test func refusesNothingAndTextTooLongForAnyVersion() {
        #expect(throws: QRCodeError.empty) { try QRCode("") }
        // Version 40 with medium correction holds 2331 bytes.
        #expect(throws: QRCodeError.self) { try QRCode(String(repeating: "x", count: 3000)) }
    }
}
