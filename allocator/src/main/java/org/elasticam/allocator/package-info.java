/**
 * The allocator's pure decision core. {@link org.elasticam.allocator.ExecutorAllocator} is the
 * entry point; the subpackages hold one idea each (placement, reconciliation, matching, exit
 * classification, failure windows and exclusion, the ledger). This module has no Hadoop
 * dependency, reads no clock and starts no thread: time comes in as an argument.
 */
package org.elasticam.allocator;
