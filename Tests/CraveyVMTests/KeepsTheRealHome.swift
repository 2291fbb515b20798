import CraveyTestSupport

// The VM rig keeps its machine image under the real home (`~/.cache/cravey-vm`) and runs cravey
// inside the machine, with a home of its own there: these classes run without a sentinel home.
extension VMRigTests: KeepsTheRealHome {}
extension VMDeviceTests: KeepsTheRealHome {}
extension VMDoctorTests: KeepsTheRealHome {}
extension VMRecordTests: KeepsTheRealHome {}
extension VMWebcamTests: KeepsTheRealHome {}
