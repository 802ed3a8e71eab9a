package org.elasticam.bench.shuffle;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;
import org.elasticam.shuffle.protocol.PortMetadata;
import org.elasticam.shuffle.protocol.SecretEnvelope;
import org.elasticam.shuffle.service.ElasticamShuffleService;

/**
 * Our service as a NodeManager runs it, in a JVM of its own: loaded from its shaded jar (the
 * driver puts it first on the classpath), {@code init} with a YARN configuration (defaults for
 * every {@code elasticam.shuffle.*} key but the port), {@code start}, and
 * {@code initializeApplication} with the secret envelope the AM puts in the container's service
 * data. The executor's registration comes from the client, over the wire.
 *
 * <p>Arguments: {@code <work dir> <shape>... [--conf=elasticam.shuffle.KEY=VALUE...]}.
 */
public final class OursServerMain {

  private OursServerMain() {}

  public static void main(String[] args) throws Exception {
    Path work = Path.of(args[0]);
    YarnConfiguration conf = new YarnConfiguration();
    conf.set("elasticam.shuffle.port", "0");
    conf.set("elasticam.shuffle.host", "127.0.0.1");
    conf.set(YarnConfiguration.NM_LOCAL_DIRS, BenchApp.nmLocal(work).toString());
    for (String a : args) {
      if (a.startsWith("--conf=")) {
        String kv = a.substring("--conf=".length());
        conf.set(kv.substring(0, kv.indexOf('=')), kv.substring(kv.indexOf('=') + 1));
      }
    }
    ElasticamShuffleService service = new ElasticamShuffleService();
    service.setAuxiliaryLocalPathHandler(new NodeManagerPaths(List.of(BenchApp.nmLocal(work))));
    service.init(conf);
    service.start();
    byte[] secret = Files.readAllBytes(BenchApp.oursSecret(work));
    for (int i = 1; i < args.length; i++) {
      if (args[i].startsWith("--conf=")) {
        continue;
      }
      Shape s = Shape.parse(args[i]);
      ApplicationId app = ApplicationId.newInstance(BenchApp.CLUSTER_TIMESTAMP, s.index());
      service.initializeApplication(new ApplicationInitializationContext(BenchApp.user(), app,
          new SecretEnvelope(secret, false).encode()));
    }
    ServerProcess.serveUntilStdinCloses(PortMetadata.decode(service.getMetaData()).port(), service::stop);
  }
}
