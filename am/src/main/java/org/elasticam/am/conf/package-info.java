/** Hadoop's Configuration adapted into ElasticAM's typed configuration. */
package org.elasticam.am.conf;
