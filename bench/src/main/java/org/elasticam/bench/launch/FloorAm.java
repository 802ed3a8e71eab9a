package org.elasticam.bench.launch;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.yarn.api.ApplicationConstants;
import org.apache.hadoop.yarn.api.ApplicationConstants.Environment;
import org.apache.hadoop.yarn.api.protocolrecords.AllocateResponse;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.api.records.ApplicationSubmissionContext;
import org.apache.hadoop.yarn.api.records.Container;
import org.apache.hadoop.yarn.api.records.ContainerLaunchContext;
import org.apache.hadoop.yarn.api.records.Priority;
import org.apache.hadoop.yarn.api.records.Resource;
import org.apache.hadoop.yarn.api.records.YarnApplicationState;
import org.apache.hadoop.yarn.client.api.AMRMClient.ContainerRequest;
import org.apache.hadoop.yarn.client.api.NMClient;
import org.apache.hadoop.yarn.client.api.YarnClient;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.elasticam.embedded.UnmanagedApplication;

/**
 * The bare-YARN floor: a minimal ApplicationMaster (this JVM, unmanaged) that asks for N
 * containers at once, heartbeats every 100 ms, and starts each one as soon as it is granted —
 * running a shell that only connects back (as cheap as {@code /bin/true}), or a Java main that
 * only connects back. It measures, from its own
 * registration, when the first and the last container reported back over a socket — the same
 * moment our executors' registration marks. And the floor of the AM's own start: a managed
 * {@link MinimalAm} submitted from this JVM, timed from submission to its registration.
 */
final class FloorAm {

  /** Milliseconds from registration to the first and to the last container's work. */
  record Result(long firstMs, long allMs) {}

  private FloorAm() {}

  static Result run(Configuration conf, int n, boolean java, List<String> classpath) throws Exception {
    try (ServerSocket hello = new ServerSocket()) {
      hello.bind(new InetSocketAddress("127.0.0.1", 0));
      List<Long> done = new CopyOnWriteArrayList<>();
      Thread acceptor = acceptor(hello, n, done);
      try (UnmanagedApplication app = UnmanagedApplication.register(conf, "floor", Duration.ofSeconds(60))) {
        long t0 = System.nanoTime();
        NMClient nm = NMClient.createNMClient();
        nm.init(conf);
        nm.start();
        try {
          drive(app, nm, n, java, classpath, hello.getLocalPort(), done, t0);
        } finally {
          nm.stop();
        }
        acceptor.interrupt();
        List<Long> sorted = new ArrayList<>(done);
        sorted.sort(null);
        return new Result((sorted.get(0) - t0) / 1_000_000, (sorted.get(n - 1) - t0) / 1_000_000);
      }
    }
  }

  private static void drive(UnmanagedApplication app, NMClient nm, int n, boolean java, List<String> classpath,
      int port, List<Long> done, long t0) throws Exception {
    Resource r = Resource.newInstance(128, 1);
    for (int i = 0; i < n; i++) {
      app.client().addContainerRequest(new ContainerRequest(r, null, null, Priority.newInstance(1)));
    }
    int granted = 0;
    long deadline = t0 + Duration.ofMinutes(3).toNanos();
    while (done.size() < n && System.nanoTime() < deadline) {
      AllocateResponse resp = app.client().allocate(0.5f);
      for (Container c : resp.getAllocatedContainers()) {
        if (granted++ < n) {
          app.client().removeContainerRequest(new ContainerRequest(r, null, null, Priority.newInstance(1)));
          nm.startContainer(c, context(java, classpath, port));
        }
      }
      Thread.sleep(100);
    }
    if (done.size() < n) {
      throw new IllegalStateException("only " + done.size() + " of " + n + " floor containers finished");
    }
  }

  /**
   * The AM's own start, floor: milliseconds from this client's start (as ElasticAM's is timed from
   * its client's) until a managed {@link MinimalAm} has registered and said so over a socket. Its
   * container gets the cluster's {@code yarn.application.classpath} (the cluster's configuration
   * first, as ElasticAM's AM does) after the directory of this benchmark's classes.
   */
  static long amStart(Configuration conf, String benchClasses) throws Exception {
    try (ServerSocket hello = new ServerSocket()) {
      hello.bind(new InetSocketAddress("127.0.0.1", 0));
      List<Long> done = new CopyOnWriteArrayList<>();
      Thread acceptor = acceptor(hello, 1, done);
      long t0 = System.nanoTime();
      YarnClient yarn = YarnClient.createYarnClient();
      yarn.init(conf);
      yarn.start();
      try {
        ApplicationSubmissionContext app = yarn.createApplication().getApplicationSubmissionContext();
        app.setApplicationName("floor-am");
        app.setMaxAppAttempts(1);
        List<String> cp = new ArrayList<>();
        cp.add(Environment.PWD.$$());
        cp.add(benchClasses);
        cp.addAll(List.of(conf.getStrings(YarnConfiguration.YARN_APPLICATION_CLASSPATH,
            YarnConfiguration.DEFAULT_YARN_CROSS_PLATFORM_APPLICATION_CLASSPATH)));
        Map<String, String> env = new HashMap<>();
        env.put(Environment.JAVA_HOME.name(), System.getProperty("java.home"));
        env.put(Environment.CLASSPATH.name(), String.join(ApplicationConstants.CLASS_PATH_SEPARATOR, cp));
        String cmd = Environment.JAVA_HOME.$$() + "/bin/java -Xmx256m " + MinimalAm.class.getName() + " 127.0.0.1 "
            + hello.getLocalPort() + " 1>" + ApplicationConstants.LOG_DIR_EXPANSION_VAR + "/stdout 2>"
            + ApplicationConstants.LOG_DIR_EXPANSION_VAR + "/stderr";
        app.setAMContainerSpec(ContainerLaunchContext.newInstance(Map.of(), env, List.of(cmd), null, null, null));
        app.setResource(Resource.newInstance(512, 1));
        yarn.submitApplication(app);
        ApplicationId id = app.getApplicationId();
        long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
        while (done.isEmpty() && System.nanoTime() < deadline) {
          YarnApplicationState state = yarn.getApplicationReport(id).getYarnApplicationState();
          if (state == YarnApplicationState.FAILED || state == YarnApplicationState.KILLED) {
            throw new IllegalStateException("the floor AM " + id + " ended " + state + ": "
                + yarn.getApplicationReport(id).getDiagnostics());
          }
          Thread.sleep(20);
        }
        if (done.isEmpty()) {
          throw new IllegalStateException("the floor AM " + id + " did not register within 2 minutes");
        }
        // The next run starts on an idle cluster: wait for this one to end.
        while (!yarn.getApplicationReport(id).getYarnApplicationState().equals(YarnApplicationState.FINISHED)
            && System.nanoTime() < deadline) {
          Thread.sleep(50);
        }
        return (done.get(0) - t0) / 1_000_000;
      } finally {
        acceptor.interrupt();
        yarn.stop();
      }
    }
  }

  private static ContainerLaunchContext context(boolean java, List<String> classpath, int port) {
    Map<String, String> env = new HashMap<>();
    env.put(Environment.JAVA_HOME.name(), System.getProperty("java.home"));
    String cmd = java
        ? Environment.JAVA_HOME.$$() + "/bin/java -cp " + String.join(":", classpath) + " " + Hello.class.getName()
            + " 127.0.0.1 " + port
        // bash's /dev/tcp: the shell container signals without starting any process of its own.
        : "echo ok > /dev/tcp/127.0.0.1/" + port;
    return ContainerLaunchContext.newInstance(Map.of(), env, List.of(cmd), null, null, null);
  }

  private static Thread acceptor(ServerSocket hello, int n, List<Long> done) {
    Thread t = new Thread(() -> {
      try {
        while (done.size() < n) {
          try (Socket s = hello.accept()) {
            s.getInputStream().read();
            done.add(System.nanoTime());
          }
        }
      } catch (IOException e) {
        // closed at the end of the run
      }
    }, "floor-hello");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
