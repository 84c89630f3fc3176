import Testing
import TrackCore

struct CalibrationProposalTests {
    private func trip(_ id: Int64, odometer: Double, measured: Double) -> CalibrationProposal.Trip {
        CalibrationProposal.Trip(id: TripID(rawValue: id), odometer: odometer, measured: measured)
    }

    @Test func proposesTheCarsKilometresOverGPSsOnceTheyAddUpToTwentyKilometres() throws {
        let trips = (1...5).map { trip($0, odometer: 4_020, measured: 4_000) }
        let proposal = try CalibrationProposal.propose(from: trips).get()
        #expect(proposal.factor == 1.005)
        #expect(proposal.trips == 5 && proposal.firstTrip == 1 && proposal.lastTrip == 5)
        #expect(proposal.odometer == 20_100 && proposal.measured == 20_000)
        #expect(throws: CalibrationProposal.Withheld.tooFewKilometres(measured: 16_000)) {
            try CalibrationProposal.propose(from: Array(trips.prefix(4))).get()
        }
    }

    @Test func onlyTheNewestFiftyTripsCount() throws {
        // 50 new trips where the car counts 2 % more, after 50 old ones where it counted the same as GPS.
        let old = (1...50).map { trip($0, odometer: 1_000, measured: 1_000) }
        let new = (51...100).map { trip($0, odometer: 1_020, measured: 1_000) }
        let proposal = try CalibrationProposal.propose(from: (new + old).shuffled()).get()
        #expect(proposal.factor == 1.02)
        #expect(proposal.firstTrip == 51 && proposal.lastTrip == 100)
    }

    @Test func withholdsAFactorNoCalibrationErrorExplains() {
        let trips = (1...3).map { trip($0, odometer: 9_000, measured: 8_000) }
        #expect(throws: CalibrationProposal.Withheld.implausible(factor: 1.125)) {
            try CalibrationProposal.propose(from: trips).get()
        }
    }

    @Test func leavesOutTripsWithoutGPSKilometresOrWithAnOdometerGoingBack() throws {
        let trips = [trip(1, odometer: 30_000, measured: 0), trip(2, odometer: -100, measured: 5_000),
                     trip(3, odometer: 20_200, measured: 20_000)]
        let proposal = try CalibrationProposal.propose(from: trips).get()
        #expect(proposal.factor == 1.01 && proposal.trips == 1)
    }
}
