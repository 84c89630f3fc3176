/// What the sentences of one epoch have said so far.
struct EpochBuilder: Sendable {
    var timeOfDay: Int64?
    /// A date stated inside this epoch (RMC or ZDA).
    var date: CivilDate?
    var hasPositionReport = false
    /// Whether any position sentence of the epoch says its position is valid.
    var isValid = false
    var latitude: Double?
    var longitude: Double?
    /// How finely the chosen position was written (fraction digits of the latitude minutes).
    var positionResolution = -1
    /// Whether a valid GGA or GNS (a full solution report: satellites, HDOP, altitude) is part of the epoch.
    var hasSolutionReport = false
    var altitude: Double?
    var geoidSeparation: Double?
    var ggaQuality: FixQuality?
    var gnsQuality: FixQuality?
    var modeQuality: FixQuality?
    var speed: Double?
    var track: Double?
    var positionHDOP: Double?
    var positionSatellites: Int?
    var gsa: GSASummary?
    var gstLatitudeSigma: Double?
    var gstLongitudeSigma: Double?
    var satellitesInView: [NMEATalker: Int] = [:]
    /// The last sentence added, and how often that sentence occurred in the epoch (for cycle-end learning).
    var lastKey: CycleKey?
    var keyCounts: [UInt64: Int] = [:]
    var isEmpty = true

    /// The GSA sentences of one epoch, combined.
    struct GSASummary: Sendable, Hashable {
        var mode: Int?
        var satellitesUsed: Int
        var pdop: Double?
        var hdop: Double?
        var vdop: Double?
        var timeOfDay: Int64?
    }

    /// A sentence as an epoch boundary marker: its address and which occurrence in the epoch it was.
    struct CycleKey: Sendable, Hashable {
        var address: UInt64
        var occurrence: Int
    }

    /// Adds what one sentence says.
    mutating func add(_ sentence: NMEASentence) {
        isEmpty = false
        switch sentence.payload {
        case .rmc(let rmc):
            hasPositionReport = true
            if let date = rmc.date { self.date = date }
            if rmc.isValid {
                takePosition(rmc.latitude, rmc.longitude, resolution: rmc.positionResolution)
                if let knots = rmc.speedKnots { speed = knots * NMEAUnits.metresPerSecondPerKnot }
                if let course = rmc.course { track = course }
                if let mode = rmc.modeIndicator, let quality = FixQuality(modeIndicator: mode) { modeQuality = quality }
            }
        case .gga(let gga):
            hasPositionReport = true
            if gga.isValid {
                takePosition(gga.latitude, gga.longitude, resolution: gga.positionResolution)
                takeSolution(altitude: gga.altitude, geoidSeparation: gga.geoidSeparation, hdop: gga.hdop,
                             satellites: gga.satellitesUsed)
                ggaQuality = FixQuality(ggaQuality: gga.quality ?? 1)
            }
        case .gns(let gns):
            hasPositionReport = true
            if gns.isValid {
                takePosition(gns.latitude, gns.longitude, resolution: gns.positionResolution)
                takeSolution(altitude: gns.altitude, geoidSeparation: gns.geoidSeparation, hdop: gns.hdop,
                             satellites: gns.satellitesUsed)
                gnsQuality = gns.quality
            }
        case .gll(let gll):
            hasPositionReport = true
            if gll.isValid {
                takePosition(gll.latitude, gll.longitude, resolution: gll.positionResolution)
                if let mode = gll.modeIndicator, let quality = FixQuality(modeIndicator: mode) { modeQuality = quality }
            }
        case .vtg(let vtg):
            if vtg.isValid {
                if let speed = vtg.speed { self.speed = speed }
                if let course = vtg.course { track = course }
            }
        case .gsa(let sentence):
            // No satellites and no usable HDOP (SiRF writes 50.0, others 99.9): it describes no solution.
            if sentence.satellitesUsed == 0 && (sentence.hdop ?? 99) >= 50 { return }
            var summary = gsa ?? GSASummary(satellitesUsed: 0, timeOfDay: timeOfDay)
            if let mode = sentence.fixMode { summary.mode = max(summary.mode ?? 0, mode) }
            summary.satellitesUsed += sentence.satellitesUsed
            if let pdop = sentence.pdop { summary.pdop = pdop }
            if let hdop = sentence.hdop { summary.hdop = hdop }
            if let vdop = sentence.vdop { summary.vdop = vdop }
            gsa = summary
        case .gst(let gst):
            if let sigma = gst.latitudeSigma { gstLatitudeSigma = sigma }
            if let sigma = gst.longitudeSigma { gstLongitudeSigma = sigma }
        case .zda(let zda):
            if let date = zda.date { self.date = date }
        case .gsv(let gsv):
            if let count = gsv.satellitesInView { satellitesInView[sentence.talker] = count }
        }
    }

    /// Notes the sentence as the latest of the epoch; the parts of a GSV message before its last do not count.
    mutating func mark(_ sentence: NMEASentence) {
        if case .gsv(let gsv) = sentence.payload, !gsv.isLastPart { return }
        let address = UInt64(sentence.talker.code) << 32 | UInt64(sentence.type.code)
        let occurrence = (keyCounts[address] ?? 0) + 1
        keyCounts[address] = occurrence
        lastKey = CycleKey(address: address, occurrence: occurrence)
    }

    /// Keeps the most finely written valid position of the epoch, the latest of equally fine ones.
    ///
    /// Sentences of one epoch normally agree. When they do not, a coarser copy (a reference receiver writing RMC
    /// with three decimals beside a seven-decimal GGA) never replaces a finer one, and among equals the latest
    /// report stands, as with any other value of the epoch.
    private mutating func takePosition(_ latitude: Double?, _ longitude: Double?, resolution: Int) {
        guard let latitude, let longitude else { return }
        if isValid && resolution < positionResolution { return }
        isValid = true
        self.latitude = latitude
        self.longitude = longitude
        positionResolution = resolution
    }

    /// Keeps what a valid GGA or GNS says about the whole solution.
    private mutating func takeSolution(altitude: Double?, geoidSeparation: Double?, hdop: Double?, satellites: Int?) {
        hasSolutionReport = true
        if let altitude { self.altitude = altitude }
        if let geoidSeparation { self.geoidSeparation = geoidSeparation }
        if let hdop { positionHDOP = hdop }
        if let satellites { positionSatellites = satellites }
    }

    /// Adds what a later builder for the same epoch collected (for an epoch that turned out not to be over).
    mutating func absorb(_ later: EpochBuilder) {
        if later.isEmpty { return }
        isEmpty = false
        if let date = later.date { self.date = date }
        hasPositionReport = hasPositionReport || later.hasPositionReport
        if later.isValid {
            takePosition(later.latitude, later.longitude, resolution: later.positionResolution)
        }
        hasSolutionReport = hasSolutionReport || later.hasSolutionReport
        altitude = later.altitude ?? altitude
        geoidSeparation = later.geoidSeparation ?? geoidSeparation
        ggaQuality = later.ggaQuality ?? ggaQuality
        gnsQuality = later.gnsQuality ?? gnsQuality
        modeQuality = later.modeQuality ?? modeQuality
        speed = later.speed ?? speed
        track = later.track ?? track
        positionHDOP = later.positionHDOP ?? positionHDOP
        positionSatellites = later.positionSatellites ?? positionSatellites
        if let more = later.gsa {
            if var summary = gsa {
                summary.mode = max(summary.mode ?? 0, more.mode ?? 0)
                summary.satellitesUsed += more.satellitesUsed
                summary.pdop = more.pdop ?? summary.pdop
                summary.hdop = more.hdop ?? summary.hdop
                summary.vdop = more.vdop ?? summary.vdop
                gsa = summary
            } else {
                gsa = more
            }
        }
        gstLatitudeSigma = later.gstLatitudeSigma ?? gstLatitudeSigma
        gstLongitudeSigma = later.gstLongitudeSigma ?? gstLongitudeSigma
        satellitesInView.merge(later.satellitesInView) { _, new in new }
        for (address, count) in later.keyCounts { keyCounts[address, default: 0] += count }
        lastKey = later.lastKey ?? lastKey
    }
}
