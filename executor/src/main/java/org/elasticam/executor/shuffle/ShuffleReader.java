package org.elasticam.executor.shuffle;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.elasticam.rpc.proto.MapOutputLocation;
import org.elasticam.rpc.proto.ShuffleRead;
import org.elasticam.shuffle.client.BlockCorruptedException;
import org.elasticam.shuffle.client.FetchException;
import org.elasticam.shuffle.client.FetchedBlock;
import org.elasticam.shuffle.client.FetchedBlocks;
import org.elasticam.shuffle.client.ServiceAddress;
import org.elasticam.shuffle.layout.CorruptIndexException;
import org.elasticam.shuffle.protocol.FetchRequest;
import org.elasticam.shuffle.protocol.MapIdSet;
import org.elasticam.shuffle.protocol.ReduceRange;

/**
 * Gathers one reduce partition of a shuffle: every location's blocks are requested at once (the
 * client bounds requests and bytes in flight), each fetched block is verified, handed to a
 * {@link BlockBuffer} (memory up to a bound, then spill files) and its network buffer released, and
 * the blocks are merged in key order. Blocks on this executor's own node may instead be read from
 * the files directly. Anything lost becomes a {@link FetchFailedException} naming the map tasks.
 */
public final class ShuffleReader {

  private final ExecutorShuffle shuffle;

  public ShuffleReader(ExecutorShuffle shuffle) {
    this.shuffle = shuffle;
  }

  /**
   * Reads partition {@code partition} of {@code read}'s shuffle into {@code into}.
   *
   * @throws FetchFailedException when a location's blocks cannot be had
   */
  public void gather(ShuffleRead read, int partition, BlockBuffer into) throws IOException {
    List<Pending> pending = new ArrayList<>();
    for (MapOutputLocation loc : read.getLocationsList()) {
      if (loc.getMapIdsCount() == 0) {
        continue;
      }
      if (shuffle.readLocalDirectly() && loc.getHost().equals(shuffle.host()) && loc.getLocalDirsCount() > 0) {
        readLocal(read.getShuffleId(), loc, partition, into);
        continue;
      }
      FetchRequest r = new FetchRequest(shuffle.appId(), loc.getExecutorId(), read.getShuffleId(),
          ReduceRange.of(partition), MapIdSet.of(loc.getMapIdsList().stream().mapToInt(Integer::intValue).toArray()));
      ServiceAddress at = ServiceAddress.plain(loc.getHost(), loc.getPort());
      for (CompletableFuture<FetchedBlocks> f : shuffle.client().fetchAll(at, r)) {
        pending.add(new Pending(loc, f));
      }
    }
    int consumed = 0;
    try {
      for (Pending p : pending) {
        consumed++;
        try (FetchedBlocks blocks = await(read.getShuffleId(), p)) {
          for (FetchedBlock b : blocks.blocks()) {
            into.add(b.data());
          }
        }
      }
    } finally {
      // Fetches still under way when this one failed: their bytes count against the client's
      // budget until closed, and the client outlives this task.
      for (Pending p : pending.subList(consumed, pending.size())) {
        p.future.whenComplete((blocks, failure) -> {
          if (blocks != null) {
            blocks.close();
          }
        });
      }
    }
  }

  private static FetchedBlocks await(int shuffleId, Pending p) throws IOException {
    try {
      return p.future.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted while fetching shuffle " + shuffleId);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      List<Integer> lost = p.location.getMapIdsList();
      if (cause instanceof BlockCorruptedException c) {
        lost = List.of(c.mapId());
      }
      String why = cause instanceof FetchException ? cause.getMessage() : String.valueOf(cause);
      throw new FetchFailedException(shuffleId, p.location.getExecutorId(), lost, "cannot fetch shuffle " + shuffleId
          + " output of map(s) " + abbreviate(lost) + " from executor " + p.location.getExecutorId() + " on "
          + p.location.getHost() + ": " + why, cause);
    }
  }

  private static void readLocal(int shuffleId, MapOutputLocation loc, int partition, BlockBuffer into)
      throws IOException {
    List<Path> dirs = loc.getLocalDirsList().stream().map(Path::of).toList();
    for (int mapId : loc.getMapIdsList()) {
      try {
        into.add(LocalBlocks.read(dirs, shuffleId, mapId, partition));
      } catch (NoSuchFileException | CorruptIndexException | BlockCorruptedException e) {
        throw new FetchFailedException(shuffleId, loc.getExecutorId(), List.of(mapId), "cannot read shuffle "
            + shuffleId + " output of map " + mapId + " on this node: " + e.getMessage(), e);
      } catch (IOException e) {
        throw new FetchFailedException(shuffleId, loc.getExecutorId(), List.of(mapId), "cannot read shuffle "
            + shuffleId + " output of map " + mapId + " on this node: " + e, e);
      }
    }
  }

  private static String abbreviate(List<Integer> ids) {
    return ids.size() <= 8 ? ids.toString() : ids.subList(0, 8) + " and " + (ids.size() - 8) + " more";
  }

  private record Pending(MapOutputLocation location, CompletableFuture<FetchedBlocks> future) {}
}
