package org.elasticam.bench.shuffle;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.mapred.ShuffleHandler;
import org.apache.hadoop.mapreduce.security.token.JobTokenIdentifier;
import org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.NativeCodeLoader;
import org.apache.hadoop.yarn.api.records.ApplicationId;
import org.apache.hadoop.yarn.conf.YarnConfiguration;
import org.apache.hadoop.yarn.server.api.ApplicationInitializationContext;

/**
 * Hadoop's {@code ShuffleHandler} (mapreduce_shuffle) as a NodeManager runs it, in a JVM of its
 * own: {@code init} and {@code start} with Hadoop's defaults but an ephemeral port and server-side
 * keep-alive on ({@code mapreduce.shuffle.connection-keep-alive.enable}: the operator's switch
 * for what this benchmark measures, kept-alive connections), the NodeManager's local path
 * handler, and {@code initializeApplication} with the shuffle token exactly as MapReduce's AM
 * builds it ({@code TaskAttemptImpl}): the job token's identifier and kind with the job's shuffle
 * key as password, serialized by {@code ShuffleHandler.serializeServiceData}.
 *
 * <p>Arguments: {@code <work dir> <shape>...}.
 */
public final class HadoopServerMain {

  private HadoopServerMain() {}

  public static void main(String[] args) throws Exception {
    Path work = Path.of(args[0]);
    YarnConfiguration conf = new YarnConfiguration();
    conf.setInt(ShuffleHandler.SHUFFLE_PORT_CONFIG_KEY, 0);
    conf.setBoolean(ShuffleHandler.SHUFFLE_CONNECTION_KEEP_ALIVE_ENABLED, true);
    conf.set(YarnConfiguration.NM_LOCAL_DIRS, BenchApp.nmLocal(work).toString());
    System.err.println("ShuffleHandler: Hadoop native library loaded: " + NativeCodeLoader.isNativeCodeLoaded()
        + " (without it, manage.os.cache's readahead and fadvise are off)");
    ShuffleHandler handler = new ShuffleHandler();
    handler.setAuxiliaryLocalPathHandler(new NodeManagerPaths(List.of(BenchApp.nmLocal(work))));
    handler.init(conf);
    handler.start();
    byte[] shuffleKey = Files.readAllBytes(BenchApp.hadoopShuffleKey(work));
    for (int i = 1; i < args.length; i++) {
      Shape s = Shape.parse(args[i]);
      ApplicationId app = ApplicationId.newInstance(BenchApp.CLUSTER_TIMESTAMP, s.index());
      handler.initializeApplication(new ApplicationInitializationContext(BenchApp.user(), app,
          ShuffleHandler.serializeServiceData(shuffleToken(s, shuffleKey))));
    }
    ServerProcess.serveUntilStdinCloses(ShuffleHandler.deserializeMetaData(handler.getMetaData()), handler::stop);
  }

  /** What MapReduce's AM puts in each container's service data for mapreduce_shuffle. */
  static Token<JobTokenIdentifier> shuffleToken(Shape s, byte[] shuffleKey) {
    JobTokenIdentifier id = new JobTokenIdentifier(new Text(BenchApp.jobId(s).toString()));
    Token<JobTokenIdentifier> jobToken = new Token<>(id, new JobTokenSecretManager());
    jobToken.setService(id.getJobId());
    return new Token<>(jobToken.getIdentifier(), shuffleKey, jobToken.getKind(), jobToken.getService());
  }
}
