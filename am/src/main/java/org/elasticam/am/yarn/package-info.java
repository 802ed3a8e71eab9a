/**
 * The only Hadoop-aware package of the AM's allocation path: YarnAllocator applies the core's plans
 * to AMRMClient and the launcher, and turns YARN's responses into the core's records.
 */
package org.elasticam.am.yarn;
