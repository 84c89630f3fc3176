extension EffectiveConfiguration {
    /// What trackd runs with after reloading `new`: its settings that apply at once (`ConfigurationChanges.applied`),
    /// and this configuration's for the rest, which wait for the next start.
    public func reloading(_ new: EffectiveConfiguration) -> EffectiveConfiguration {
        var running = self
        running.path = new.path
        running.logLevel = new.logLevel
        running.alertCommand = new.alertCommand
        running.alertTimeout = new.alertTimeout
        running.engine = new.engine
        running.profile = new.profile
        running.privacy = new.privacy
        running.uplink = new.uplink
        running.obd = new.obd
        return running
    }
}
