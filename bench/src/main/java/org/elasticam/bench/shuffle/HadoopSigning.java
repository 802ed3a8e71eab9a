package org.elasticam.bench.shuffle;

import java.io.IOException;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import javax.crypto.SecretKey;
import org.apache.hadoop.mapreduce.security.SecureShuffleUtils;
import org.apache.hadoop.mapreduce.security.token.JobTokenSecretManager;

/**
 * A MapReduce reducer's side of ShuffleHandler's authentication, as its {@code Fetcher} does it:
 * the URL {@code /mapOutput?job=<job>&reduce=<r>&map=<attempt>,<attempt>...} (the scheduler's
 * base URL plus comma-separated attempts), its {@code UrlHash} (HMAC of port + path + query
 * under the job's shuffle key, by {@code SecureShuffleUtils}), and the check of the server's
 * {@code ReplyHash}.
 */
final class HadoopSigning {

  static final String NAME_HEADER = "name: mapreduce";
  static final String VERSION_HEADER = "version: 1.0.0";

  private final SecretKey key;
  private final int port;

  HadoopSigning(byte[] shuffleKey, int port) {
    this.key = JobTokenSecretManager.createSecretKey(shuffleKey);
    this.port = port;
  }

  static String target(Shape s, Shape.Request r) {
    List<String> attempts = new ArrayList<>(r.count());
    for (int m = r.firstMap(); m < r.firstMap() + r.count(); m++) {
      attempts.add(BenchApp.attemptId(s, m));
    }
    return "/mapOutput?job=" + BenchApp.jobId(s) + "&reduce=" + r.reduce() + "&map=" + String.join(",", attempts);
  }

  /** The {@code UrlHash} header's value for this request target. */
  String urlHash(String target) throws IOException {
    return SecureShuffleUtils.hashFromString(SecureShuffleUtils.buildMsgFrom(new URL("http", "127.0.0.1", port, target)),
        key);
  }

  /** @throws IOException unless {@code replyHash} is the server's answer to {@code urlHash} */
  void verifyReply(String replyHash, String urlHash) throws IOException {
    if (replyHash == null) {
      throw new IOException("no ReplyHash in the response");
    }
    SecureShuffleUtils.verifyReply(replyHash, urlHash, key);
  }
}
