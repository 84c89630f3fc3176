import Foundation
import TrackCore

/// The allowance rates the package ships (etc/rates.conf), as trackd and trackctl read them from a build in this
/// source tree.
public enum ShippedRates {
    /// etc/rates.conf of this source tree.
    public static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("etc/rates.conf").path

    /// The table read from it; a wrong line stops the test that asks.
    public static func table() throws -> RateTable {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let read = RateTable.reading([(path, text)])
        if let refused = read.refused.first { throw refused }
        return read.table
    }
}
