#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TrackCore

/// A small inline SVG map of one trip's track, for the printed report: no tiles, no network, just the line.
///
/// - Projection: equirectangular, longitude scaled by the cosine of the track's mean latitude (true to scale
///   within the few kilometres of a trip), fitted into a fixed box with a margin and centred; a track shorter than
///   `minimumSpan` metres across is drawn at the scale of that span, so a short hop does not fill the box.
/// - Each segment is a polyline of its own (a one-point segment repeats its point, which the round line caps
///   draw as a dot); a dashed line shows each outage bridged between segments; the start is a green dot, the end
///   a red one; a scale bar shows a round distance (1, 2 or 5 × 10ⁿ metres).
/// - Named places (`Place`: where the trip started and ended, at the trip's start and end position) are rings in
///   the start's and the end's colour, labelled with the place's name (cut at `labelLength` characters; the name
///   and address in full as the mark's title). The fit includes them, so a place beside the track stays in the
///   box; the projection's scale of longitude is the track's alone.
/// - Compactness: coordinates are rounded to 0.1 px, and a dense track is thinned by dropping points closer than
///   a pixel to the previous kept one (the threshold doubling until at most `maximumPoints` remain); a segment's
///   first and last points are never dropped.
struct TrackMap: Sendable {
    /// The box, in SVG user units (pixels at 96 dpi).
    static let width = 320.0
    static let height = 200.0
    /// The space kept free around the track, and below it for the scale bar.
    static let margin = 14.0
    static let scaleBarSpace = 14.0
    /// Most points a map draws (segment ends excepted).
    static let maximumPoints = 600
    /// Metres across below which the track is not enlarged further.
    static let minimumSpan = 150.0
    /// Metres per degree of latitude on the mean Earth sphere (6 371 008.8 m).
    static let metresPerDegree = 111_195.08

    /// Most characters of a place's name a label shows.
    static let labelLength = 32

    /// A named place the map marks: where the trip started or ended.
    struct Place: Sendable, Hashable {
        /// Which end of the trip the place is.
        enum Role: String, Sendable, Hashable {
            case start, end
        }

        var role: Role
        /// Where to draw it (the trip's start or end position).
        var coordinate: Coordinate
        var name: String
        var address: String?
    }

    /// The projected, thinned segments, pixels.
    let segments: [[(x: Double, y: Double)]]
    /// The projected places, pixels, in the order given.
    let places: [(place: Place, x: Double, y: Double)]
    /// The map's scale.
    let metresPerPixel: Double

    /// The map of `segments` (points whose coordinates are finite and on the globe) with `places` marked (those
    /// whose coordinates are on the globe); `nil` without any point of a track, whatever places there are.
    init?(segments source: [[Coordinate]], places: [Place] = []) {
        let source = source.map { $0.filter(\.isDrawable) }.filter { !$0.isEmpty }
        guard let origin = source.first?.first else { return nil }
        let places = places.filter(\.coordinate.isDrawable)
        // Longitudes unwrapped around the first point, so a track across ±180° stays in one piece.
        func unwrapped(_ longitude: Double) -> Double {
            longitude + 360 * ((origin.longitude - longitude) / 360).rounded()
        }
        let all = source.flatMap { $0 }
        let meanLatitude = all.reduce(0) { $0 + $1.latitude } / Double(all.count)
        let squeeze = cos(meanLatitude * .pi / 180)
        func planar(_ coordinate: Coordinate) -> (x: Double, y: Double) {
            (x: unwrapped(coordinate.longitude) * squeeze, y: -coordinate.latitude)
        }
        let planarSegments = source.map { $0.map(planar) }
        let planarPlaces = places.map { planar($0.coordinate) }
        let everything = planarSegments.flatMap { $0 } + planarPlaces
        let xs = everything.map(\.x), ys = everything.map(\.y)
        let minX = xs.min()!, maxX = xs.max()!, minY = ys.min()!, maxY = ys.max()!
        let boxWidth = TrackMap.width - 2 * TrackMap.margin
        let boxHeight = TrackMap.height - 2 * TrackMap.margin - TrackMap.scaleBarSpace
        let floor = TrackMap.minimumSpan / TrackMap.metresPerDegree
        let scale = min(boxWidth / max(maxX - minX, floor), boxHeight / max(maxY - minY, floor))
        let left = TrackMap.margin + (boxWidth - (maxX - minX) * scale) / 2
        let top = TrackMap.margin + (boxHeight - (maxY - minY) * scale) / 2
        func projected(_ point: (x: Double, y: Double)) -> (x: Double, y: Double) {
            (x: left + (point.x - minX) * scale, y: top + (point.y - minY) * scale)
        }
        segments = TrackMap.thinned(planarSegments.map { $0.map(projected) }, maximum: TrackMap.maximumPoints)
        self.places = zip(places, planarPlaces).map { place, point in
            let pixel = projected(point)
            return (place, pixel.x, pixel.y)
        }
        metresPerPixel = TrackMap.metresPerDegree / scale
    }

    /// `segments` with points closer than a threshold to the previous kept one dropped, the threshold starting at a
    /// pixel and doubling until at most `maximum` points remain; first and last points of a segment always stay.
    static func thinned(_ segments: [[(x: Double, y: Double)]], maximum: Int) -> [[(x: Double, y: Double)]] {
        var threshold = 1.0
        while true {
            let kept = segments.map { segment -> [(x: Double, y: Double)] in
                guard segment.count > 2 else { return segment }
                var result = [segment[0]]
                for point in segment[1..<(segment.count - 1)] {
                    let last = result[result.count - 1]
                    if hypot(point.x - last.x, point.y - last.y) >= threshold { result.append(point) }
                }
                result.append(segment[segment.count - 1])
                return result
            }
            if kept.reduce(0, { $0 + $1.count }) <= maximum || threshold > width + height { return kept }
            threshold *= 2
        }
    }

    /// The round distance the scale bar shows, metres, and its length in pixels: the longest of 1, 2 or 5 × 10ⁿ
    /// metres (in miles: of miles, from a hundredth of one) that fits in a third of the box's width.
    func scaleBar(in unit: DistanceUnit = .kilometres) -> (metres: Double, pixels: Double) {
        let base = unit == .miles ? unit.metres : 1
        let most = metresPerPixel * (TrackMap.width - 2 * TrackMap.margin) / 3 / base
        var power = pow(10, floor(log10(max(most, unit == .miles ? 0.01 : 1))))
        var best = power
        while true {
            for step in [1.0, 2.0, 5.0] where step * power <= most { best = step * power }
            if 10 * power > most { break }
            power *= 10
        }
        return (best * base, best * base / metresPerPixel)
    }

    /// The SVG element, with `title` as its accessible name and the scale bar in `unit`.
    func svg(title: String, unit: DistanceUnit = .kilometres) -> String {
        let width = TrackMap.width, height = TrackMap.height
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(n(width)) \(n(height))\" "
            + "width=\"\(n(width))\" height=\"\(n(height))\" role=\"img\" class=\"track-map\">"
        svg += "<title>\(MarkupText.escape(title))</title>"
        svg += "<rect x=\"0.5\" y=\"0.5\" width=\"\(n(width - 1))\" height=\"\(n(height - 1))\" fill=\"#f6f6f2\" "
            + "stroke=\"#bbbbbb\"/>"
        if segments.count > 1 {
            svg += "<g stroke=\"#8a8a8a\" stroke-width=\"1.2\" stroke-dasharray=\"3 3\">"
            for (earlier, later) in zip(segments, segments.dropFirst()) {
                let from = earlier[earlier.count - 1], to = later[0]
                svg += "<line x1=\"\(n(from.x))\" y1=\"\(n(from.y))\" x2=\"\(n(to.x))\" y2=\"\(n(to.y))\"/>"
            }
            svg += "</g>"
        }
        svg += "<g fill=\"none\" stroke=\"#1f5fbf\" stroke-width=\"2.2\" stroke-linejoin=\"round\" "
            + "stroke-linecap=\"round\">"
        for segment in segments {
            let points = segment.count == 1 ? [segment[0], segment[0]] : segment
            svg += "<polyline points=\"" + points.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ") + "\"/>"
        }
        svg += "</g>"
        if let start = segments.first?.first, let end = segments.last?.last {
            svg += "<circle class=\"start\" cx=\"\(n(start.x))\" cy=\"\(n(start.y))\" r=\"4.5\" fill=\"#1e9e3e\" "
                + "stroke=\"#ffffff\" stroke-width=\"1.5\"/>"
            svg += "<circle class=\"end\" cx=\"\(n(end.x))\" cy=\"\(n(end.y))\" r=\"4.5\" fill=\"#d0312d\" "
                + "stroke=\"#ffffff\" stroke-width=\"1.5\"/>"
        }
        svg += placeMarks()
        let bar = scaleBar(in: unit)
        let barLeft = TrackMap.margin, barBottom = height - TrackMap.margin + 4
        svg += "<g class=\"scale\"><path d=\"M\(n(barLeft)) \(n(barBottom - 4))v4h\(n(bar.pixels))v-4\" fill=\"none\" "
            + "stroke=\"#333333\" stroke-width=\"1.2\"/>"
        svg += "<text x=\"\(n(barLeft + bar.pixels + 5))\" y=\"\(n(barBottom))\" font-size=\"10\" "
            + "font-family=\"sans-serif\" fill=\"#333333\">\(TrackMap.distanceText(bar.metres, unit: unit))</text></g>"
        svg += "</svg>"
        return svg
    }

    /// The places' rings and labels: a label beside its ring, on the side towards the middle of the map; when the
    /// start and the end lie close together (a round trip), the start's label above and the end's below.
    func placeMarks() -> String {
        let crowded = zip(places, places.dropFirst()).contains { hypot($0.x - $1.x, $0.y - $1.y) < 24 }
        var svg = ""
        for mark in places {
            let colour = mark.place.role == .start ? "#1e9e3e" : "#d0312d"
            let towardsLeft = mark.x > TrackMap.width / 2
            var y = mark.y + 3
            if crowded { y = mark.place.role == .start ? mark.y - 4 : mark.y + 11 }
            y = min(max(y, 10), TrackMap.height - 4)
            let full = mark.place.address.map { "\(mark.place.name), \($0)" } ?? mark.place.name
            let title = (mark.place.role == .start ? "Start: " : "End: ") + full
            svg += "<g class=\"place \(mark.place.role.rawValue)-place\"><title>\(MarkupText.escape(title))</title>"
            svg += "<circle class=\"place-ring\" cx=\"\(n(mark.x))\" cy=\"\(n(mark.y))\" r=\"7\" fill=\"none\" "
                + "stroke=\"\(colour)\" stroke-width=\"1.8\"/>"
            svg += "<text class=\"place-label\" x=\"\(n(towardsLeft ? mark.x - 10 : mark.x + 10))\" y=\"\(n(y))\" "
                + "text-anchor=\"\(towardsLeft ? "end" : "start")\" font-size=\"9\" font-family=\"sans-serif\" "
                + "fill=\"#111111\" stroke=\"#ffffff\" stroke-width=\"2.5\" paint-order=\"stroke\">"
                + "\(MarkupText.escape(TrackMap.label(mark.place.name)))</text></g>"
        }
        return svg
    }

    /// `name`, or its first `labelLength` − 1 characters and `…` when it is longer.
    static func label(_ name: String) -> String {
        name.count > labelLength ? String(name.prefix(labelLength - 1)) + "…" : name
    }

    /// `500 m`, `2 km`; in miles `0.5 mi`, `2 mi`.
    static func distanceText(_ metres: Double, unit: DistanceUnit = .kilometres) -> String {
        if unit == .miles { return "\(DecimalText.fixed(metres / unit.metres, digits: 2, trimmed: true)) mi" }
        return metres >= 1000 ? "\(DecimalText.fixed(metres / 1000, digits: 3, trimmed: true)) km"
            : "\(DecimalText.fixed(metres, digits: 0)) m"
    }

    /// A coordinate to 0.1 px, without a trailing `.0`.
    private func n(_ value: Double) -> String {
        DecimalText.fixed(value, digits: 1, trimmed: true)
    }
}
