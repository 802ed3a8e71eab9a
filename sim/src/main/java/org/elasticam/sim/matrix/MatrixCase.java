package org.elasticam.sim.matrix;

/**
 * One case of the robustness matrix: a workload under conditions.
 *
 * @param slice {@code tuning} or {@code heldout}
 * @param workload a recorded trace's name, or a synthetic workload's ({@code etl-chain#2})
 * @param label {@code d0}, {@code d1}, … for drawn conditions, the corner's name for a corner
 */
public record MatrixCase(String slice, String workload, String label, Conditions conditions) {

  /** Unique within the matrix: {@code tuning/etl-chain#2/d3}. */
  public String id() {
    return slice + "/" + workload + "/" + label;
  }
}
