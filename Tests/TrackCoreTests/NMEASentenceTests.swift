import Testing
@testable import TrackCore

struct NMEASentenceTests {
    @Test func readsRMCWithDateSpeedAndCourse() throws {
        let rmc = try #require(NMEA.parse("GPRMC,123519.50,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W,D").sentence)
        guard case .rmc(let value) = rmc.payload else { Issue.record("not RMC"); return }
        #expect(rmc.talker == .gps)
        #expect(value.isValid)
        let stamped: Int64 = (12 * 3600 + 35 * 60 + 19) * 1_000_000_000 + 500_000_000
        #expect(value.timeOfDay == stamped)
        #expect(abs(value.latitude! - (48 + 7.038 / 60)) < 1e-12)
        #expect(abs(value.longitude! - (11 + 31.0 / 60)) < 1e-12)
        #expect(value.speedKnots == 22.4)
        #expect(value.course == 84.4)
        #expect(value.date == CivilDate(year: 1994, month: 3, day: 23))
        #expect(value.modeIndicator == UInt8(ascii: "D"))
        #expect(rmc.checksum == .verified)
    }

    @Test func treatsRMCStatusVOrModeNAsInvalid() throws {
        for body in ["GNRMC,000001,V,,,,,,,010120,,,N", "GNRMC,000001,A,4807.038,N,01131.000,E,0,0,010120,,,N"] {
            guard case .rmc(let value) = try #require(NMEA.parse(body).sentence).payload else { continue }
            #expect(!value.isValid, "\(body)")
        }
    }

    @Test func readsGGAWithQualityAltitudeAndSouthWest() throws {
        let gga = try #require(NMEA.parse("GNGGA,092725.00,4717.11399,S,00833.91590,W,4,08,1.01,499.6,M,48.0,M,1.2,0000").sentence)
        guard case .gga(let value) = gga.payload else { Issue.record("not GGA"); return }
        #expect(gga.talker == .combined)
        #expect(value.quality == 4)
        #expect(value.satellitesUsed == 8)
        #expect(value.hdop == 1.01)
        #expect(value.altitude == 499.6)
        #expect(value.geoidSeparation == 48.0)
        #expect(abs(value.latitude! + (47 + 17.11399 / 60)) < 1e-12)
        #expect(abs(value.longitude! + (8 + 33.91590 / 60)) < 1e-12)
        #expect(value.positionResolution == 5)
    }

    @Test func readsEveryListedTalker() throws {
        for talker in ["GP", "GN", "GL", "GA", "GB", "BD", "GQ", "GI"] {
            let sentence = try #require(NMEA.parse("\(talker)GGA,000000,0000.000,N,00000.000,E,1,05,1.0,1.0,M,0.0,M,,").sentence)
            #expect(sentence.talker.description == talker)
            #expect(sentence.talker.isKnownGNSS)
        }
    }

    @Test func readsGNSWithTheBestConstellationMode() throws {
        let gns = try #require(NMEA.parse("GNGNS,112257.00,3844.24011,N,00908.43828,W,AN,03,10.5,,,,").sentence)
        guard case .gns(let value) = gns.payload else { Issue.record("not GNS"); return }
        #expect(value.quality == .gps)
        #expect(value.satellitesUsed == 3)
        let none = try #require(NMEA.parse("GNGNS,112257.00,,,,,NN,00,,,,,").sentence)
        guard case .gns(let invalid) = none.payload else { Issue.record("not GNS"); return }
        #expect(!invalid.isValid)
        let rtk = try #require(NMEA.parse("GNGNS,112257.00,3844.24011,N,00908.43828,W,RF,12,0.8,12.0,50.1,,").sentence)
        guard case .gns(let best) = rtk.payload else { Issue.record("not GNS"); return }
        #expect(best.quality == .rtkFixed)
    }

    @Test func readsGSAModeDOPsAndUsedSatellites() throws {
        let gsa = try #require(NMEA.parse("GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1").sentence)
        guard case .gsa(let value) = gsa.payload else { Issue.record("not GSA"); return }
        #expect(value.fixMode == 3)
        #expect(value.satellitesUsed == 5)
        #expect(value.pdop == 2.5)
        #expect(value.hdop == 1.3)
        #expect(value.vdop == 2.1)
        // NMEA 4.1 adds a system ID after VDOP.
        let v41 = try #require(NMEA.parse("GNGSA,A,2,01,02,03,,,,,,,,,,1.8,1.6,0.9,1").sentence)
        guard case .gsa(let newer) = v41.payload else { Issue.record("not GSA"); return }
        #expect(newer.fixMode == 2)
        #expect(newer.vdop == 0.9)
    }

    @Test func readsGSTErrorEstimates() throws {
        let gst = try #require(NMEA.parse("GPGST,172814.0,0.006,0.023,0.020,273.6,0.023,0.020,0.031").sentence)
        guard case .gst(let value) = gst.payload else { Issue.record("not GST"); return }
        #expect(value.latitudeSigma == 0.023)
        #expect(value.longitudeSigma == 0.020)
        #expect(value.altitudeSigma == 0.031)
        let stamped: Int64 = (17 * 3600 + 28 * 60 + 14) * 1_000_000_000
        #expect(gst.timeOfDay == stamped)
    }

    @Test func readsVTGInTodaysAndTheOldFormat() throws {
        let modern = try #require(NMEA.parse("GPVTG,054.7,T,034.4,M,005.5,N,010.2,K,A").sentence)
        guard case .vtg(let value) = modern.payload else { Issue.record("not VTG"); return }
        #expect(value.course == 54.7)
        #expect(abs(value.speed! - 5.5 * 1852 / 3600) < 1e-12)
        let kmhOnly = try #require(NMEA.parse("GPVTG,054.7,T,,M,,N,036.0,K,D").sentence)
        guard case .vtg(let kmh) = kmhOnly.payload else { Issue.record("not VTG"); return }
        #expect(abs(kmh.speed! - 10.0) < 1e-12)
        let old = try #require(NMEA.parse("GPVTG,054.7,034.4,005.5,010.2").sentence)
        guard case .vtg(let oldValue) = old.payload else { Issue.record("not VTG"); return }
        #expect(oldValue.course == 54.7)
        #expect(abs(oldValue.speed! - 5.5 * 1852 / 3600) < 1e-12)
        let invalid = try #require(NMEA.parse("GPVTG,,T,,M,,N,,K,N").sentence)
        guard case .vtg(let none) = invalid.payload else { Issue.record("not VTG"); return }
        #expect(!none.isValid)
    }

    @Test func readsGLLAndZDAAndGSV() throws {
        let gll = try #require(NMEA.parse("GPGLL,4916.45,N,12311.12,W,225444,A,A").sentence)
        guard case .gll(let position) = gll.payload else { Issue.record("not GLL"); return }
        #expect(position.isValid)
        #expect(abs(position.longitude! + (123 + 11.12 / 60)) < 1e-12)
        let zda = try #require(NMEA.parse("GPZDA,201530.00,04,07,2002,00,00").sentence)
        guard case .zda(let date) = zda.payload else { Issue.record("not ZDA"); return }
        #expect(date.date == CivilDate(year: 2002, month: 7, day: 4))
        let gsv = try #require(NMEA.parse("GLGSV,3,3,11,82,33,275,40,83,49,325,37,84,14,335,").sentence)
        guard case .gsv(let view) = gsv.payload else { Issue.record("not GSV"); return }
        #expect(view.satellitesInView == 11)
        #expect(view.isLastPart)
    }

    @Test func rejectsAWrongChecksumAndSaysWhatItExpected() {
        let result = NMEA.parseRaw("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*48")
        guard case .badChecksum(let stated, let computed) = result.error else {
            Issue.record("expected a checksum error, got \(result)")
            return
        }
        #expect(stated == 0x48)
        #expect(computed == 0x47)
        #expect(result.error?.description.contains("48") == true)
    }

    @Test func acceptsAMissingChecksumButSaysSo() throws {
        let sentence = try #require(NMEA.parseRaw("$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,").sentence)
        #expect(sentence.checksum == .missing)
    }

    @Test func rejectsAMalformedChecksum() {
        #expect(NMEA.parseRaw("$GPGGA,1,2*4").error == .malformedChecksum)
        #expect(NMEA.parseRaw("$GPGGA,1,2*G1").error == .malformedChecksum)
    }

    @Test func skipsProprietaryAndUnusedAndNonNMEASentences() {
        #expect(NMEA.parse("PUBX,00,081350.00,4717.113210,N") == .ignored(.proprietary))
        #expect(NMEA.parse("PGRME,2.1,M,2.9,M,3.6,M") == .ignored(.proprietary))
        #expect(NMEA.parse("GPRMB,A,,,,,,,,,,,,A,D") == .ignored(.unsupported(NMEASentenceType("RMB"))))
        #expect(NMEA.parseRaw("$SkyTraq,Venus6") == .ignored(.unknownAddress))
        #expect(NMEA.parse(",1,2").error == .missingAddress)
    }

    @Test func rejectsFieldsThatAreNotWhatTheySayWithTheFieldNamed() {
        let cases: [(String, Int)] = [
            ("GPGGA,123519,48X7.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", 2),  // latitude
            ("GPGGA,123519,4860.000,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", 2),  // 60 minutes
            ("GPGGA,123519,9100.000,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", 2),  // beyond the pole
            ("GPGGA,123519,4807.038,Q,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", 3),  // hemisphere
            ("GPGGA,126519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,", 1),  // 65 minutes past
            ("GPRMC,123519,A,4807.038,N,01131.000,E,022.4,084.4,320394,,", 9),   // 32 March
            ("GPRMC,123519,X,4807.038,N,01131.000,E,022.4,084.4,230394,,", 2),   // status
            ("GPGSA,A,7,,,,,,,,,,,,,2.5,1.3,2.1", 2),                               // mode 7
            ("GPRMC,123519,A,4807.038,N,01131.000,E,-1.0,084.4,230394,,", 7),    // negative speed
        ]
        for (body, field) in cases {
            guard case .invalidField(_, let index, _, _) = NMEA.parse(body).error else {
                Issue.record("\(body) was not rejected for a field")
                continue
            }
            #expect(index == field, "\(body)")
        }
        guard case .missingField(_, let index, let name) = NMEA.parse("GPGLL,4916.45,,12311.12,W,225444,A").error else {
            Issue.record("a latitude without N/S was accepted")
            return
        }
        #expect(index == 2)
        #expect(name == "N/S")
    }

    @Test func readsFractionalTimeAndTheLeapSecond() throws {
        let sentence = try #require(NMEA.parse("GPGGA,235960.125,,,,,0,00,,,,,,,").sentence)
        #expect(sentence.timeOfDay == Int64(86_400) * 1_000_000_000 + 125_000_000)
    }

    @Test func readsTwoDigitYearsAroundTheCentury() throws {
        guard case .rmc(let old) = try #require(NMEA.parse("GPRMC,000000,A,0000.0,N,00000.0,E,0,0,311299,,").sentence).payload,
              case .rmc(let new) = try #require(NMEA.parse("GPRMC,000000,A,0000.0,N,00000.0,E,0,0,010100,,").sentence).payload
        else { Issue.record("not RMC"); return }
        #expect(old.date == CivilDate(year: 1999, month: 12, day: 31))
        #expect(new.date == CivilDate(year: 2000, month: 1, day: 1))
    }
}
