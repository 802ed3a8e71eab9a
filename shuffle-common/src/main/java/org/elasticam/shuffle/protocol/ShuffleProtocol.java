package org.elasticam.shuffle.protocol;

/**
 * The wire protocol's constants: HTTP/1.1, version 1.
 *
 * <pre>
 * GET  /v1/fetch?app=&lt;appId&gt;&amp;exec=&lt;execId&gt;&amp;shuffle=&lt;id&gt;&amp;reduce=&lt;r|r1-r2&gt;&amp;maps=&lt;MapIdSet&gt;&amp;ts=&lt;ms&gt;
 * POST /v1/register?app=&lt;appId&gt;&amp;exec=&lt;execId&gt;&amp;dirs=&lt;dir,dir&gt;&amp;ts=&lt;ms&gt;   (no body)
 * POST /v1/remove-shuffle?app=&lt;appId&gt;&amp;shuffle=&lt;id&gt;&amp;ts=&lt;ms&gt;   (no body)
 * header X-Elasticam-Signature: EAS1 &lt;base64url HMAC-SHA256&gt;   (see {@link RequestSigner})
 * </pre>
 *
 * <p>A 200 fetch response has {@code Content-Length} and {@code X-Elasticam-Blocks}; its body is,
 * for each map id ascending and each reduce id of the range ascending, a {@link BlockHeader}
 * followed by the block's bytes. Every other response is a short {@code text/plain} body.
 */
public final class ShuffleProtocol {

  public static final String FETCH_PATH = "/v1/fetch";
  public static final String REGISTER_PATH = "/v1/register";
  public static final String REMOVE_SHUFFLE_PATH = "/v1/remove-shuffle";
  public static final String SIGNATURE_HEADER = "X-Elasticam-Signature";
  public static final String BLOCKS_HEADER = "X-Elasticam-Blocks";

  public static final String APP = "app";
  public static final String EXEC = "exec";
  public static final String SHUFFLE = "shuffle";
  public static final String REDUCE = "reduce";
  public static final String MAPS = "maps";
  public static final String DIRS = "dirs";
  public static final String TS = "ts";

  /**
   * The longest request line the service reads ({@code GET <uri> HTTP/1.1}); longer gets 414.
   * Netty's default, and what proxies and tools commonly allow.
   */
  public static final int MAX_REQUEST_LINE = 4096;

  /**
   * The longest {@code maps} value. With the other parameters (an application id, a 64-character
   * executor id, numbers, a 13-digit timestamp: under 300 characters) it keeps a fetch's request
   * line under {@link #MAX_REQUEST_LINE}; the client splits larger sets.
   */
  public static final int MAX_MAPS_CHARS = 3072;

  /** Most map ids in one request: each is one index read and one file to open. */
  public static final int MAX_MAPS_PER_REQUEST = 4096;

  /** Most blocks (maps x reduces) in one request: each is one header and one file region. */
  public static final int MAX_BLOCKS_PER_REQUEST = 65_536;

  /** Most local dirs one executor registers. */
  public static final int MAX_DIRS = 64;

  /** The total size of request headers the service reads; more gets 431. */
  public static final int MAX_HEADER_BYTES = 8192;

  private ShuffleProtocol() {}
}
