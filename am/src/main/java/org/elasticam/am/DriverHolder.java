package org.elasticam.am;

import java.util.Map;
import org.elasticam.am.driver.Driver;
import org.elasticam.am.driver.DriverService;
import org.elasticam.am.driver.ExecutorSession;
import org.elasticam.engine.job.Outcome;
import org.elasticam.am.yarn.YarnAllocator;
import org.elasticam.rpc.proto.ExecutorMessage;

/**
 * The control plane starts before the driver exists (executors need its port in their launch
 * command); until the driver is attached, sessions are refused. Event loop only.
 */
final class DriverHolder implements DriverService.SessionHandler {

  private Driver driver;
  private YarnAllocator allocator;

  /** Tokens renewed before the driver was attached; it sends them on when it is. */
  private com.google.protobuf.ByteString pendingCredentials;

  void set(Driver d, YarnAllocator a) {
    this.driver = d;
    this.allocator = a;
    if (pendingCredentials != null) {
      d.engine().updateCredentials(pendingCredentials.toByteArray());
      pendingCredentials = null;
    }
  }

  /** Renewed delegation tokens, for every executor. */
  void updateCredentials(com.google.protobuf.ByteString tokens) {
    if (driver == null) {
      pendingCredentials = tokens;
    } else {
      driver.engine().updateCredentials(tokens.toByteArray());
    }
  }

  @Override
  public void onMessage(ExecutorSession session, ExecutorMessage message) {
    if (driver == null) {
      session.refuse(DriverService.NOT_RUNNING);
    } else {
      driver.onMessage(session, message);
    }
  }

  @Override
  public void onClosed(ExecutorSession session, String why) {
    if (driver != null) {
      driver.onClosed(session, why);
    }
  }

  Map<String, Object> snapshot() {
    if (driver == null) {
      return Map.of("state", "STARTING");
    }
    return ApplicationMaster.snapshot(driver.engine(), allocator);
  }

  /** The job is over: make sure the driver knows, and stop the executors. */
  void finish(Outcome outcome) {
    if (driver != null) {
      driver.engine().finish(outcome);
      driver.engine().shutdownExecutors("the application is ending: " + outcome.status());
    }
  }
}
