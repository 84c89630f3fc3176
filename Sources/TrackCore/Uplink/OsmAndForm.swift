/// An item of the log as Traccar's OsmAnd protocol takes it: one position per request, form fields `id` (the
/// device), `timestamp` (seconds since 1970), `lat`, `lon`, `speed` (knots), `accuracy` (m), and trackd's own as
/// attributes (Traccar keeps every other field on the position): `uid` (the stable id), `trip`, `point`, `dist`,
/// and for a trip's start or end `trip_event`, `kind`, `distance`; for an event `event` and `alarm`.
public enum OsmAndForm {
    /// The form for `item`, or `nil` for one that says nothing Traccar could place: a trip's start or end without a
    /// position (a private trip in privacy mode; Traccar would put it at the last position it knows).
    public static func encode(_ item: UplinkItem, device: String) -> String? {
        var fields: [(String, String)] = [("id", device), ("uid", item.position.messageID(device: device))]
        switch item {
        case .point(let point, let tripID, let seq):
            fields += [("timestamp", seconds(point.time)), ("lat", degrees(point.coordinate.latitude)),
                       ("lon", degrees(point.coordinate.longitude))]
            if let speed = point.speed, speed.isFinite { fields.append(("speed", decimal(speed / 0.514_444, digits: 2))) }
            if let error = point.error, error.isFinite { fields.append(("accuracy", decimal(error, digits: 1))) }
            fields += [("trip", "\(tripID)"), ("point", "\(seq)"), ("dist", decimal(point.distance, digits: 0))]
        case .tripStarted(let trip), .tripEnded(let trip):
            let started: Bool
            if case .tripStarted = item { started = true } else { started = false }
            guard let position = started ? trip.startPosition : trip.endPosition,
                  let time = started ? trip.start : (trip.end ?? trip.start) else { return nil }
            fields += [("timestamp", seconds(time)), ("lat", degrees(position.latitude)),
                       ("lon", degrees(position.longitude)), ("trip", "\(trip.id)"),
                       ("trip_event", started ? "start" : "end"), ("kind", trip.kind.rawValue)]
            if !started { fields.append(("distance", decimal(trip.distance, digits: 0))) }
            if let purpose = trip.purpose { fields.append(("purpose", purpose)) }
        case .event(let event):
            if let time = event.time { fields.append(("timestamp", seconds(time))) }
            if let tripID = event.tripID { fields.append(("trip", "\(tripID)")) }
            fields.append(("event", event.kind.rawValue))
            // Traccar's own alarm names: an idle car is its "general" alarm, the fix lost its "gps antenna cut"
            // nearest kin ("fault"); the others are events, not alarms.
            switch event.kind {
            case .idleAlert: fields.append(("alarm", "general"))
            case .fixLost: fields.append(("alarm", "fault"))
            default: break
            }
        }
        return fields.map { "\(escape($0.0))=\(escape($0.1))" }.joined(separator: "&")
    }

    private static func seconds(_ time: UTCTime) -> String {
        "\(Int64(time.secondsSinceEpoch.rounded(.down)))"
    }

    private static func degrees(_ value: Double) -> String {
        decimal(value, digits: 7)
    }

    /// `value` with `digits` decimals, without a locale.
    static func decimal(_ value: Double, digits: Int) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded()
        let whole = Int64(scaled / scale)
        let fraction = Int64(scaled - Double(whole) * scale)
        let sign = value < 0 && scaled > 0 ? "-" : ""
        guard digits > 0 else { return "\(sign)\(whole)" }
        let text = String(fraction)
        return "\(sign)\(whole).\(String(repeating: "0", count: max(0, digits - text.count)))\(text)"
    }

    /// Percent-encoding for a form field: letters, digits and `-._~` as they are, the rest as UTF-8 bytes.
    static func escape(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                out += "%"
                out.unicodeScalars.append(hex[Int(byte >> 4)])
                out.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return out
    }
}
