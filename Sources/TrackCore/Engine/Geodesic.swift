import RealModule

/// Distances on the WGS-84 ellipsoid.
public enum Geodesic {
    /// WGS-84 semi-major axis, metres.
    public static let semiMajorAxis = 6_378_137.0
    /// WGS-84 flattening.
    public static let flattening = 1 / 298.257_223_563
    /// Semi-minor axis, metres.
    public static let semiMinorAxis = semiMajorAxis * (1 - flattening)
    private static let eccentricitySquared = flattening * (2 - flattening)

    /// The length of the shortest path between two points on the ellipsoid, metres (Vincenty's inverse formula,
    /// accurate to well under a millimetre). For nearly antipodal points, where Vincenty does not converge, it
    /// falls back to a great circle on the mean radius: a case a road vehicle never meets between two fixes.
    public static func distance(from a: Coordinate, to b: Coordinate) -> Double {
        if a == b { return 0 }
        let degree = Double.pi / 180
        let f = flattening
        let reducedA = Double.atan((1 - f) * Double.tan(a.latitude * degree))
        let reducedB = Double.atan((1 - f) * Double.tan(b.latitude * degree))
        let longitudeDifference = (b.longitude - a.longitude) * degree
        let (sinU1, cosU1) = (Double.sin(reducedA), Double.cos(reducedA))
        let (sinU2, cosU2) = (Double.sin(reducedB), Double.cos(reducedB))
        var lambda = longitudeDifference
        for _ in 0..<200 {
            let (sinLambda, cosLambda) = (Double.sin(lambda), Double.cos(lambda))
            let term1 = cosU2 * sinLambda
            let term2 = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            let sinSigma = (term1 * term1 + term2 * term2).squareRoot()
            if sinSigma == 0 { return 0 }
            let cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            let sigma = Double.atan2(y: sinSigma, x: cosSigma)
            let sinAlpha = cosU1 * cosU2 * sinLambda / sinSigma
            let cosSquaredAlpha = 1 - sinAlpha * sinAlpha
            let cos2SigmaM = cosSquaredAlpha != 0 ? cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha : 0
            let c = f / 16 * cosSquaredAlpha * (4 + f * (4 - 3 * cosSquaredAlpha))
            let previous = lambda
            lambda = longitudeDifference + (1 - c) * f * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            if abs(lambda - previous) < 1e-12 {
                let uSquared = cosSquaredAlpha * (semiMajorAxis * semiMajorAxis - semiMinorAxis * semiMinorAxis)
                    / (semiMinorAxis * semiMinorAxis)
                let bigA = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
                let bigB = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
                let deltaSigma = bigB * sinSigma * (cos2SigmaM + bigB / 4
                    * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)
                        - bigB / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
                return semiMinorAxis * bigA * (sigma - deltaSigma)
            }
        }
        return greatCircle(from: a, to: b)
    }

    /// Haversine distance on a sphere of the ellipsoid's mean radius: the fallback for antipodal points.
    static func greatCircle(from a: Coordinate, to b: Coordinate) -> Double {
        let degree = Double.pi / 180
        let meanRadius = (2 * semiMajorAxis + semiMinorAxis) / 3
        let dLatitude = (b.latitude - a.latitude) * degree
        let dLongitude = (b.longitude - a.longitude) * degree
        let h = Double.sin(dLatitude / 2) * Double.sin(dLatitude / 2)
            + Double.cos(a.latitude * degree) * Double.cos(b.latitude * degree) * Double.sin(dLongitude / 2) * Double.sin(dLongitude / 2)
        return 2 * meanRadius * Double.asin(min(1, h.squareRoot()))
    }

    /// Metres east and north of `origin` (local tangent plane with the ellipsoid's radii at the origin).
    /// Exact enough for the displacements of a parked or slowly moving vehicle (well under 0.1 % within 10 km).
    public static func offset(of point: Coordinate, from origin: Coordinate) -> (east: Double, north: Double) {
        let radii = localRadii(at: origin)
        var dLongitude = point.longitude - origin.longitude
        if dLongitude > 180 { dLongitude -= 360 } else if dLongitude < -180 { dLongitude += 360 }
        return (dLongitude * radii.east, (point.latitude - origin.latitude) * radii.north)
    }

    /// The point `east` and `north` metres from `origin`; the inverse of `offset`.
    public static func point(east: Double, north: Double, from origin: Coordinate) -> Coordinate {
        let radii = localRadii(at: origin)
        return Coordinate(latitude: origin.latitude + north / radii.north,
                          longitude: origin.longitude + east / max(radii.east, 1e-9))
    }

    /// Metres per degree east and north at a point.
    private static func localRadii(at origin: Coordinate) -> (east: Double, north: Double) {
        let degree = Double.pi / 180
        let latitude = origin.latitude * degree
        let w = (1 - eccentricitySquared * Double.sin(latitude) * Double.sin(latitude)).squareRoot()
        let meridian = semiMajorAxis * (1 - eccentricitySquared) / (w * w * w)
        let normal = semiMajorAxis / w
        return (degree * normal * Double.cos(latitude), degree * meridian)
    }
}

/// A point on the ellipsoid, degrees.
public struct Coordinate: Sendable, Hashable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

extension Fix {
    /// The fix's position, when it has one.
    public var coordinate: Coordinate? {
        guard mode.hasPosition, let latitude, let longitude else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
}
