/// Groups the sentences of one UTC instant (an epoch) into one `Fix`.
///
/// An epoch is every sentence stamped with the same UTC time of day, plus the unstamped ones (GSA, VTG, GSV) that
/// arrive while it is open. It ends when a sentence with another time arrives, when `flush` is called (end of
/// input), or — once learned — as soon as the sentence that ends every cycle of this receiver has arrived, so that
/// a live fix is not held back until the next second.
///
/// Rules, in short (docs/nmea.md has the reasoning):
/// - **Date**: from RMC or ZDA; between them the last date is carried, moving to the next day when the time of day
///   jumps back by more than 12 hours (midnight). A stream that never states a date (GGA only) yields fixes without
///   `time` unless the caller gives a date hint (`setDateHint`), e.g. a system clock known to be set; the hint is
///   taken only once the stream has gone `dateHintAfter` of its own time without stating a date, so that a stream
///   joined between its RMC and its GGA is dated by the receiver, not by a clock that may be wrong.
/// - **Validity**: a position is taken only from a sentence that calls it valid (RMC `A`, GGA quality > 0, GNS mode
///   not `N`, GLL `A`). When the epoch's sentences disagree, the most finely written position wins, the latest of
///   equally fine ones.
/// - **Mode**: the receiver's own word first: the highest GSA fix mode of the epoch (a 2D that the same GSA
///   contradicts — four or more satellites and a VDOP below 1.0 — is read as 3D). Without a GSA in the epoch,
///   the last GSA (up to 10 s old) still stands while the epoch's GGA/GNS reports the same satellites and HDOP;
///   otherwise a GGA/GNS with an altitude means 3D, without one 2D. An epoch with only RMC/GLL keeps the mode
///   of the fix before it (2D after a loss of fix). Unlike gpsd, a GGA altitude does not turn a fix the receiver calls 2D into 3D: in 2D the
///   altitude is held, not measured.
/// - **Speed and course**: only from RMC or VTG, never from positions.
/// - **Error estimate**: from GST when present, else modelled from HDOP (`HorizontalErrorModel`).
public struct EpochAssembler: Sendable {
    /// Choices of the assembler.
    public struct Configuration: Sendable, Hashable {
        /// How a horizontal error is modelled from HDOP when there is no GST.
        public var errorModel = HorizontalErrorModel()
        /// Emit an epoch as soon as the learned cycle-ending sentence arrives (live use). When off, an epoch is
        /// emitted only when the next one begins or the input ends; the fixes are the same either way.
        public var emitOnCycleEnd = true
        /// How long a GSA's fix mode and DOPs stand for epochs that have no GSA of their own, nanoseconds.
        public var gsaCarryOver: Int64 = 10 * UTCTime.nanosecondsPerSecond
        /// How much of its own time a stream must run without stating a date (no RMC or ZDA date) before the date
        /// hint dates its fixes, nanoseconds. A receiver that sends RMC does so every cycle.
        public var dateHintAfter: Int64 = 5 * UTCTime.nanosecondsPerSecond

        public init() {}
    }

    public var configuration: Configuration
    private var epoch = EpochBuilder()
    private var date: CivilDate?
    private var dateTimeOfDay: Int64?
    private var dateHint: UTCTime?
    /// The time of day of the first epoch while no date was stated: how long the stream has gone without one.
    private var undatedSince: Int64?
    private var lastGSA: EpochBuilder.GSASummary?
    /// The mode of the last fix, kept until an epoch without a position.
    private var lastPositionMode: FixMode?
    /// The epoch last emitted early, kept in case a late sentence shows it was not over.
    private var earlyEmitted: EpochBuilder?
    private var cycle = CycleEndLearner()

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// A date the caller trusts (e.g. a synchronised system clock) for streams that never state one.
    /// It is used only while no RMC or ZDA date has been seen, and only after `dateHintAfter` without one.
    public mutating func setDateHint(_ time: UTCTime?) {
        dateHint = time
    }

    /// Adds one sentence; `emit` receives every epoch that it completes.
    public mutating func add(_ sentence: NMEASentence, emit: (Fix) -> Void) {
        if let time = sentence.timeOfDay {
            if let open = epoch.timeOfDay, open != time {
                cycle.observeEnd(of: epoch)
                finishEpoch(emit)
            } else if epoch.timeOfDay == nil, var reopened = earlyEmitted, reopened.timeOfDay == time {
                // The epoch emitted early was not over: take it up again and unlearn the cycle end.
                cycle.forget()
                reopened.absorb(epoch)
                epoch = reopened
            }
            epoch.timeOfDay = time
        } else if epoch.timeOfDay == nil, let learned = cycle.learned, earlyEmitted != nil,
                  learned.address == EpochAssembler.address(of: sentence) {
            // Another copy of the cycle-ending sentence after the early emission: the end was learned wrong.
            cycle.forget()
        }
        epoch.add(sentence)
        epoch.mark(sentence)
        if configuration.emitOnCycleEnd, epoch.timeOfDay != nil, let learned = cycle.learned,
           epoch.lastKey == learned {
            let finished = epoch
            finishEpoch(emit)
            earlyEmitted = finished
        }
    }

    /// Ends the open epoch (end of input, or the input went quiet).
    public mutating func flush(emit: (Fix) -> Void) {
        if epoch.timeOfDay != nil { finishEpoch(emit) }
    }

    // MARK: - Emitting

    private mutating func finishEpoch(_ emit: (Fix) -> Void) {
        let finished = epoch
        epoch = EpochBuilder()
        earlyEmitted = nil
        let date = resolveDate(finished)
        if let gsa = finished.gsa {
            var summary = gsa
            summary.timeOfDay = finished.timeOfDay
            lastGSA = summary
        }
        guard finished.hasPositionReport, let timeOfDay = finished.timeOfDay else { return }
        let fix = makeFix(finished, timeOfDay: timeOfDay, date: date)
        lastPositionMode = fix.mode.hasPosition ? fix.mode : nil
        emit(fix)
    }

    /// The date of an epoch, keeping the carried date in step with midnight.
    private mutating func resolveDate(_ epoch: EpochBuilder) -> CivilDate? {
        guard let timeOfDay = epoch.timeOfDay else { return nil }
        if let stated = epoch.date {
            date = stated
            dateTimeOfDay = timeOfDay
            return stated
        }
        let halfDay = UTCTime.nanosecondsPerDay / 2
        if var carried = date, let last = dateTimeOfDay {
            if timeOfDay < last - halfDay {
                carried = carried.next
            } else if timeOfDay > last + halfDay {
                carried = carried.previous
            }
            date = carried
            dateTimeOfDay = timeOfDay
            return carried
        }
        let since = undatedSince ?? timeOfDay
        undatedSince = since
        let undated = (timeOfDay - since + UTCTime.nanosecondsPerDay) % UTCTime.nanosecondsPerDay
        if let hint = dateHint, undated >= configuration.dateHintAfter {
            // The day that puts this time of day nearest to the hint.
            let day = hint.date
            return [day.previous, day, day.next].min { a, b in
                abs(UTCTime(date: a, nanosecondOfDay: timeOfDay).seconds(since: hint))
                    < abs(UTCTime(date: b, nanosecondOfDay: timeOfDay).seconds(since: hint))
            }
        }
        return nil
    }

    private func makeFix(_ epoch: EpochBuilder, timeOfDay: Int64, date: CivilDate?) -> Fix {
        var fix = Fix()
        fix.time = date.map { UTCTime(date: $0, nanosecondOfDay: timeOfDay) }
        let carried = lastGSA.flatMap { summary in
            summary.timeOfDay.map { isRecent($0, at: timeOfDay) } == true ? summary : nil
        }
        let gsa = epoch.gsa ?? carried
        fix.satellitesInView = epoch.satellitesInView.isEmpty ? nil : epoch.satellitesInView.values.reduce(0, +)
        guard epoch.isValid, let latitude = epoch.latitude, let longitude = epoch.longitude else {
            fix.mode = .noFix
            return fix
        }
        fix.mode = mode(of: epoch, carried: carried, at: timeOfDay)
        fix.quality = epoch.ggaQuality ?? epoch.gnsQuality ?? epoch.modeQuality ?? .gps
        fix.latitude = latitude
        fix.longitude = longitude
        if fix.mode == .threeD { fix.altitudeMSL = epoch.altitude }
        fix.geoidSeparation = epoch.geoidSeparation
        fix.speed = epoch.speed
        fix.track = epoch.track
        fix.hdop = epoch.positionHDOP ?? gsa?.hdop
        fix.vdop = gsa?.vdop
        fix.pdop = gsa?.pdop
        fix.satellitesUsed = epoch.positionSatellites ?? ((gsa?.satellitesUsed ?? 0) > 0 ? gsa?.satellitesUsed : nil)
        if let latitudeSigma = epoch.gstLatitudeSigma, let longitudeSigma = epoch.gstLongitudeSigma {
            fix.eph = HorizontalErrorModel.fromStandardDeviations(latitude: latitudeSigma, longitude: longitudeSigma)
            fix.ephSource = .receiver
        } else if let hdop = fix.hdop {
            fix.eph = configuration.errorModel.fromHDOP(hdop, quality: fix.quality)
            fix.ephSource = .hdopModel
        }
        return fix
    }

    /// The fix mode of an epoch with a valid position (see the type's documentation for the rules).
    private func mode(of epoch: EpochBuilder, carried: EpochBuilder.GSASummary?, at timeOfDay: Int64) -> FixMode {
        func mode(_ value: Int?) -> FixMode? {
            switch value {
            case 3: .threeD
            case 2: .twoD
            default: nil
            }
        }
        if let gsa = epoch.gsa, let stated = mode(gsa.mode) { return EpochAssembler.checked(stated, gsa) }
        if epoch.hasSolutionReport {
            if let carried, let stated = mode(carried.mode), EpochAssembler.describes(carried, epoch) {
                return EpochAssembler.checked(stated, carried)
            }
            return epoch.altitude != nil ? .threeD : .twoD
        }
        if let carried, let stated = mode(carried.mode) { return EpochAssembler.checked(stated, carried) }
        return lastPositionMode ?? .twoD
    }

    /// A GSA's 2D that its own figures contradict: four or more satellites and a VDOP below 1.0 mean the receiver
    /// solved altitude with strong vertical geometry. Receivers in a real 2D fix print no VDOP, a 1.0 placeholder
    /// or a large one; Quectel EC2x modules label every fix 2D while reporting exactly this (docs/nmea.md).
    private static func checked(_ mode: FixMode, _ gsa: EpochBuilder.GSASummary) -> FixMode {
        if mode == .twoD, gsa.satellitesUsed >= 4, let vdop = gsa.vdop, vdop > 0, vdop < 1.0 { return .threeD }
        return mode
    }

    /// Whether an earlier GSA still describes the solution the epoch's GGA/GNS reports: same satellite count and HDOP.
    private static func describes(_ gsa: EpochBuilder.GSASummary, _ epoch: EpochBuilder) -> Bool {
        if let satellites = epoch.positionSatellites, gsa.satellitesUsed > 0, satellites != gsa.satellitesUsed {
            return false
        }
        if let hdop = epoch.positionHDOP, let stated = gsa.hdop, abs(hdop - stated) > 0.05 {
            return false
        }
        return true
    }

    /// Whether a time of day lies within the carry-over window of `timeOfDay`, either side (a receiver whose
    /// clock steps back a few seconds keeps what it said), across midnight too.
    private func isRecent(_ then: Int64, at timeOfDay: Int64) -> Bool {
        var distance = (timeOfDay - then).magnitude
        distance = min(distance, UInt64(UTCTime.nanosecondsPerDay) - min(distance, UInt64(UTCTime.nanosecondsPerDay)))
        return distance <= UInt64(configuration.gsaCarryOver)
    }

    static func address(of sentence: NMEASentence) -> UInt64 {
        UInt64(sentence.talker.code) << 32 | UInt64(sentence.type.code)
    }
}

/// Learns which sentence ends each cycle of a receiver, so that an epoch can be emitted without waiting for the
/// next one: the same last sentence three epochs running.
struct CycleEndLearner: Sendable {
    private(set) var learned: EpochBuilder.CycleKey?
    private var candidate: EpochBuilder.CycleKey?
    private var streak = 0
    static let epochsToLearn = 3

    mutating func observeEnd(of epoch: EpochBuilder) {
        guard let last = epoch.lastKey else { return }
        if last == candidate {
            streak += 1
        } else {
            candidate = last
            streak = 1
        }
        // Epochs that ended by a change of time never saw the learned sentence: a new streak replaces it.
        if streak >= CycleEndLearner.epochsToLearn {
            learned = last
        }
    }

    mutating func forget() {
        learned = nil
        candidate = nil
        streak = 0
    }
}
