/// The simulation core.
public enum ScrollSimulationModule {}
