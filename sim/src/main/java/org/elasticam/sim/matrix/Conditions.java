package org.elasticam.sim.matrix;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.elasticam.sim.PolicyHarness;

/**
 * The cluster one matrix case runs on.
 *
 * @param timeScale multiplies the workload's durations and gaps (0.1: ten times shorter tasks)
 * @param startMs an executor's start, launch to registration, alone on its host (more when others
 *     start on the same host: the simulator's per-host contention, 10 % per concurrent start)
 * @param grantMs from a request reaching the ResourceManager until it can be granted
 * @param heartbeatMs the AM's heartbeat interval (the initial allocation interval is the smaller of
 *     it and 200 ms)
 * @param capacity the most containers the application's queue gives it at once; {@link #UNCONSTRAINED}
 *     for a queue that never binds
 * @param executorCores cores per executor, {@code task.cpus} 1, so as many task slots
 */
public record Conditions(double timeScale, long startMs, long grantMs, long heartbeatMs, int capacity,
    int executorCores) {

  /** A capacity that never binds. */
  public static final int UNCONSTRAINED = 100_000;
  /** Hosts of the simulated cluster, whatever the capacity. */
  public static final int HOSTS = 20;

  /** The setting the policies were first compared at (issue 4): grant 200 ms, start 1 s, 500 containers. */
  public static final Conditions BASELINE = new Conditions(1.0, 1_000, 200, 3_000, 500, 1);

  public PolicyHarness.World world() {
    PolicyHarness.World d = PolicyHarness.World.defaults();
    return new PolicyHarness.World(grantMs, startMs, d.startContention(), capacity, HOSTS, timeScale, false,
        heartbeatMs);
  }

  /** The {@code elasticam.*} settings these conditions add to the simulator's defaults. */
  public Map<String, String> conf() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("elasticam.executor.cores", String.valueOf(executorCores));
    m.put("elasticam.task.cpus", "1");
    return m;
  }

  /** The same conditions as {@code bin/elasticam simulate} flags. */
  public List<String> simulateArgs() {
    List<String> a = new ArrayList<>(List.of("--time-scale", String.valueOf(timeScale), "--start-ms",
        String.valueOf(startMs), "--grant-ms", String.valueOf(grantMs), "--heartbeat-ms", String.valueOf(heartbeatMs),
        "--capacity", String.valueOf(capacity), "--hosts", String.valueOf(HOSTS)));
    conf().forEach((k, v) -> a.addAll(List.of("--conf", k + "=" + v)));
    return a;
  }

  /**
   * As the tables print them, exactly (so that {@code simulate} can be given the same):
   * {@code ts 0.35 start 2.41s grant 0.3s hb 1.22s cap 100 cores 4}.
   */
  public String describe() {
    return "ts " + number(timeScale) + " start " + number(startMs / 1000.0) + "s grant " + number(grantMs / 1000.0)
        + "s hb " + number(heartbeatMs / 1000.0) + "s cap " + (capacity >= UNCONSTRAINED ? "inf" : capacity)
        + " cores " + executorCores;
  }

  private static String number(double v) {
    return java.math.BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }
}
