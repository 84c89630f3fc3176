import Testing
@testable import TrackCore

struct FixTests {
    @Test func writesAGpsdStyleTPVLine() {
        let fix = Fix(time: .iso("2026-11-22T10:00:01Z"), mode: .threeD, quality: .gps, latitude: 59.437, longitude: 24.7536,
                      altitudeMSL: 41.2, speed: 13.9, track: 87.5, eph: 3.1, ephSource: .receiver)
        #expect(fix.tpvJSON == #"{"class":"TPV","time":"2026-11-22T10:00:01.000Z","mode":3,"lat":59.437,"lon":24.7536,"alt":41.2,"speed":13.9,"track":87.5,"eph":3.1}"#)
    }

    @Test func leavesOutWhatIsNotKnown() {
        let noFix = Fix(time: .iso("2026-11-22T10:00:01Z"), mode: .noFix)
        #expect(noFix.tpvJSON == #"{"class":"TPV","time":"2026-11-22T10:00:01.000Z","mode":1}"#)
        let timeless = Fix(mode: .twoD, quality: .dgps, latitude: -33.5, longitude: -70.25)
        #expect(timeless.tpvJSON == #"{"class":"TPV","mode":2,"status":2,"lat":-33.5,"lon":-70.25}"#)
    }

    @Test func writesNumbersWithoutExponentsAndRoundsToTheirResolution() {
        let fix = Fix(time: nil, mode: .threeD, latitude: 0.000000001, longitude: -179.9999999996, altitudeMSL: -0.0004,
                      geoidSeparation: 18.1, hdop: 0.75, satellitesUsed: 12, satellitesInView: 31)
        #expect(fix.tpvJSON == #"{"class":"TPV","mode":3,"lat":0.000000001,"lon":-180.0,"alt":0.0,"altHAE":18.1,"geoidSep":18.1,"hdop":0.75,"uSat":12,"nSat":31}"#)
    }

    @Test func skipsValuesThatAreNotFinite() {
        let fix = Fix(mode: .threeD, latitude: 1, longitude: 2, speed: .nan, track: .infinity)
        #expect(!fix.tpvJSON.contains("speed"))
        #expect(!fix.tpvJSON.contains("track"))
    }
}
