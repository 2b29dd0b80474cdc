import ScrollSimulation
/// Content loading, planning, running and publishing.
public enum StudySiteModule {}
