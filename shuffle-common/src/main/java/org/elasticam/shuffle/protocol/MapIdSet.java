package org.elasticam.shuffle.protocol;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.function.IntConsumer;

/**
 * A set of map ids, as sorted disjoint inclusive ranges, and its compact text form: whichever is
 * shorter of
 * <ul>
 *   <li>ranges: {@code r0-99.105.107-110} and</li>
 *   <li>a bitmap: {@code b<first>~<base64url bits>}, bit {@code i} (least significant first) meaning
 *       id {@code first + i}.</li>
 * </ul>
 * Both use only URL-unreserved characters, so the text goes into a query as it is. Decoding never
 * materialises more ids than it is allowed to: a range {@code 0-2147483646} is refused by count
 * before anything is expanded.
 */
public final class MapIdSet {

  private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();
  private static final Base64.Decoder B64D = Base64.getUrlDecoder();

  /** Flattened inclusive ranges: [first0, last0, first1, last1, ...], ascending, gaps between. */
  private final int[] ranges;
  private final long size;

  private MapIdSet(int[] ranges) {
    this.ranges = ranges;
    long n = 0;
    for (int i = 0; i < ranges.length; i += 2) {
      n += (long) ranges[i + 1] - ranges[i] + 1;
    }
    this.size = n;
  }

  /** The given ids, in any order, duplicates ignored. */
  public static MapIdSet of(int... ids) {
    int[] sorted = ids.clone();
    Arrays.sort(sorted);
    List<int[]> out = new ArrayList<>();
    for (int id : sorted) {
      if (id < 0) {
        throw new IllegalArgumentException("map ids are >= 0: " + id);
      }
      int[] last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && id <= last[1] + 1L) {
        last[1] = Math.max(last[1], id);
      } else {
        out.add(new int[] {id, id});
      }
    }
    return fromPairs(out);
  }

  /** Ids {@code first..last}, inclusive. */
  public static MapIdSet range(int first, int last) {
    if (first < 0 || last < first) {
      throw new IllegalArgumentException("not a range of map ids: " + first + "-" + last);
    }
    return new MapIdSet(new int[] {first, last});
  }

  private static MapIdSet fromPairs(List<int[]> pairs) {
    int[] r = new int[pairs.size() * 2];
    for (int i = 0; i < pairs.size(); i++) {
      r[2 * i] = pairs.get(i)[0];
      r[2 * i + 1] = pairs.get(i)[1];
    }
    return new MapIdSet(r);
  }

  public long size() {
    return size;
  }

  public boolean isEmpty() {
    return size == 0;
  }

  /** Every id, ascending. */
  public void forEach(IntConsumer action) {
    for (int i = 0; i < ranges.length; i += 2) {
      for (long id = ranges[i]; id <= ranges[i + 1]; id++) {
        action.accept((int) id);
      }
    }
  }

  public int[] toArray() {
    if (size > Integer.MAX_VALUE - 8) {
      throw new IllegalStateException("too many ids to list: " + size);
    }
    int[] out = new int[(int) size];
    int[] at = {0};
    forEach(id -> out[at[0]++] = id);
    return out;
  }

  /** The shorter of the two text forms. */
  public String encode() {
    if (size == 0) {
      return "r";
    }
    String asRanges = encodeRanges();
    long span = (long) ranges[ranges.length - 1] - ranges[0] + 1;
    // base64 needs 4 characters per 3 bytes: skip the bitmap when it cannot be shorter.
    if (span / 6 + 12 >= asRanges.length()) {
      return asRanges;
    }
    String asBitmap = encodeBitmap((int) span);
    return asBitmap.length() < asRanges.length() ? asBitmap : asRanges;
  }

  private String encodeRanges() {
    StringBuilder sb = new StringBuilder("r");
    for (int i = 0; i < ranges.length; i += 2) {
      if (i > 0) {
        sb.append('.');
      }
      sb.append(ranges[i]);
      if (ranges[i + 1] != ranges[i]) {
        sb.append('-').append(ranges[i + 1]);
      }
    }
    return sb.toString();
  }

  private String encodeBitmap(int span) {
    int first = ranges[0];
    byte[] bits = new byte[(span + 7) / 8];
    forEach(id -> {
      int bit = id - first;
      bits[bit >>> 3] |= (byte) (1 << (bit & 7));
    });
    return "b" + first + "~" + B64.encodeToString(bits);
  }

  /**
   * Parses either text form.
   *
   * @param maxIds the most ids the set may hold; more is refused before anything is expanded
   * @throws IllegalArgumentException on any malformed text, overlapping or unordered ranges, or
   *     more than {@code maxIds} ids
   */
  public static MapIdSet decode(String text, int maxIds) {
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException("empty map id set");
    }
    MapIdSet set;
    switch (text.charAt(0)) {
      case 'r':
        set = decodeRanges(text.substring(1), maxIds);
        break;
      case 'b':
        set = decodeBitmap(text.substring(1), maxIds);
        break;
      default:
        throw new IllegalArgumentException("map ids must start with r or b");
    }
    if (set.size > maxIds) {
      throw new IllegalArgumentException("more than " + maxIds + " map ids in one request");
    }
    return set;
  }

  private static MapIdSet decodeRanges(String body, int maxIds) {
    if (body.isEmpty()) {
      return new MapIdSet(new int[0]);
    }
    String[] items = body.split("\\.", -1);
    if (items.length > maxIds) {
      throw new IllegalArgumentException("more than " + maxIds + " map ids in one request");
    }
    int[] r = new int[items.length * 2];
    long count = 0;
    for (int i = 0; i < items.length; i++) {
      int dash = items[i].indexOf('-');
      int first = ShuffleIds.parseId("map id", dash < 0 ? items[i] : items[i].substring(0, dash));
      int last = dash < 0 ? first : ShuffleIds.parseId("map id", items[i].substring(dash + 1));
      if (last < first || i > 0 && first <= r[2 * i - 1]) {
        throw new IllegalArgumentException("map id ranges must ascend without overlap: " + ShuffleIds.shorten(items[i]));
      }
      count += (long) last - first + 1;
      if (count > maxIds) {
        throw new IllegalArgumentException("more than " + maxIds + " map ids in one request");
      }
      r[2 * i] = first;
      r[2 * i + 1] = last;
    }
    return new MapIdSet(r);
  }

  private static MapIdSet decodeBitmap(String body, int maxIds) {
    int tilde = body.indexOf('~');
    if (tilde < 0) {
      throw new IllegalArgumentException("a map id bitmap is b<first>~<bits>");
    }
    int first = ShuffleIds.parseId("first map id", body.substring(0, tilde));
    String b64 = body.substring(tilde + 1);
    if (b64.isEmpty() || !b64.chars().allMatch(MapIdSet::isBase64Url)) {
      throw new IllegalArgumentException("bad map id bitmap");
    }
    byte[] bits;
    try {
      bits = B64D.decode(b64);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("bad map id bitmap");
    }
    List<int[]> out = new ArrayList<>();
    long count = 0;
    for (long bit = 0; bit < bits.length * 8L; bit++) {
      if ((bits[(int) (bit >>> 3)] & (1 << (bit & 7))) == 0) {
        continue;
      }
      long id = first + bit;
      if (id > Integer.MAX_VALUE || ++count > maxIds) {
        throw new IllegalArgumentException(id > Integer.MAX_VALUE ? "map id out of range"
            : "more than " + maxIds + " map ids in one request");
      }
      int[] last = out.isEmpty() ? null : out.get(out.size() - 1);
      if (last != null && last[1] == id - 1) {
        last[1] = (int) id;
      } else {
        out.add(new int[] {(int) id, (int) id});
      }
    }
    return fromPairs(out);
  }

  private static boolean isBase64Url(int c) {
    return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_';
  }

  /**
   * Splits this set, in id order, into sets whose text is at most {@code maxChars} long and that
   * hold at most {@code maxIds} ids each.
   */
  public List<MapIdSet> split(int maxChars, int maxIds) {
    if (maxChars < 24 || maxIds < 1) {
      throw new IllegalArgumentException("limits too small: " + maxChars + " chars, " + maxIds + " ids");
    }
    List<MapIdSet> out = new ArrayList<>();
    int[] ids = toArray();
    int from = 0;
    while (from < ids.length) {
      int to = largestFit(ids, from, maxChars, maxIds);
      out.add(of(Arrays.copyOfRange(ids, from, to)));
      from = to;
    }
    return out;
  }

  /** The largest {@code to} such that ids[from, to) encodes within the limits (binary search). */
  private static int largestFit(int[] ids, int from, int maxChars, int maxIds) {
    int lo = from + 1;
    int hi = (int) Math.min(ids.length, (long) from + maxIds);
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (of(Arrays.copyOfRange(ids, from, mid)).encode().length() <= maxChars) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MapIdSet && Arrays.equals(ranges, ((MapIdSet) o).ranges);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(ranges);
  }

  @Override
  public String toString() {
    String e = encodeRanges();
    return e.length() <= 60 ? e : e.substring(0, 57) + "...(" + size + " ids)";
  }
}
