import TrackCore

/// The keys of the `engine:` section: each with its meaning, unit and the values it takes.
enum EngineSettings {
    static let all: [Setting<EngineConfiguration>] = [
        .number("max_horizontal_error", \.maxHorizontalError, 1...10_000, "m",
               "positions with a larger error estimate (95 %) are not used as positions"),
        .number("converged_horizontal_error", \.convergedHorizontalError, 1...10_000, "m",
               "after acquiring, positions settle until the error estimate is this small"),
        .integer("convergence_fixes", \.convergenceFixes, 1...100,
                "fixes in a row at converged_horizontal_error that end the settling"),
        .number("max_convergence", \.maxConvergence, 0...3600, "s", "settling ends after this long in any case"),
        .number("max_speed", \.maxSpeed, 1...300, "m/s", "fastest plausible vehicle"),
        .number("max_acceleration", \.maxAcceleration, 1...100, "m/s²", "largest plausible change of speed"),
        .choice("dead_reckoning", \.deadReckoning, "reject or accept fixes marked as dead reckoning"),
        .number("moving_speed", \.movingSpeed, 0.05...10, "m/s", "reported speed from which the vehicle may move"),
        .number("stopped_speed", \.stoppedSpeed, 0.01...10, "m/s", "once moving, the vehicle stops below this speed"),
        .number("motion_confirmation", \.motionConfirmation, 0...60, "s", "how long the speed must stay up"),
        .number("certain_speed", \.certainSpeed, 0.1...50, "m/s", "a speed that means movement at once"),
        .number("confirmation_distance", \.confirmationDistance, 0...100, "m",
               "a start must add up to this much before it counts"),
        .number("rest_noise_margin", \.restNoiseMargin, 1...20, "",
               "a start must exceed this many times the speed noise at rest"),
        .number("min_displacement", \.minDisplacement, 1...10_000, "m",
               "least displacement from the parked spot that counts as movement"),
        .number("displacement_errors", \.displacementErrors, 0...100, "",
               "displacement needed, in error estimates of the two positions"),
        .number("displacement_persistence", \.displacementPersistence, 0...3600, "s",
               "how long a displacement must last"),
        .number("gap_after", \.gapAfter, 0.5...3600, "s", "fixes further apart are separated by an outage"),
        .number("max_bridge_curvature", \.maxBridgeCurvature, 1...3, "",
               "a bridged outage counts at most this multiple of its straight line"),
        .number("bridge_from_parked_within", \.bridgeFromParkedWithin, 0...3600, "s",
               "a trip at boot bridges from the parked spot to a first fix this soon after power-on"),
        .number("calibration_factor", \.calibrationFactor, 0.5...2, "", "reported distance = measured × factor"),
        .number("idle_alert_after", \.idleAlertAfter, 60...604_800, "s",
               "a trip stationary this long raises one idle alert"),
        .number("fix_loss_after", \.fixLossAfter, 1...86_400, "s", "no usable fix this long is reported"),
    ]

    static var keys: [String] { all.map(\.key) }
}
