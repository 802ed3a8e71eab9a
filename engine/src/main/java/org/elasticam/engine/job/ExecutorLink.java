package org.elasticam.engine.job;

/**
 * The engine's end of one executor's session: what it tells the executor. The AM's is a gRPC
 * stream; a test's records what it is told. Called on the engine's thread only.
 */
public interface ExecutorLink {

  /** Registration accepted: the application, and how often to send heartbeats. */
  void registered(String appId, long heartbeatIntervalMs);

  void launch(TaskLaunch launch);

  /** Stop the attempt; its end, when reported, is the engine's to judge. */
  void kill(long taskId);

  /** Whether the attempt may publish its output (the commit coordinator's answer). */
  void commitAnswer(long taskId, boolean allowed);

  /** New delegation tokens, in Hadoop's token storage format. */
  void credentials(byte[] tokens);

  /** Stop: the application is ending. */
  void shutdown(String reason);

  /** Refuses the session, saying why: it goes no further. */
  void refuse(String why);

  /** Ends the session; nothing more goes to it. */
  void end();
}
