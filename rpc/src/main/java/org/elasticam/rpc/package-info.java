/**
 * The AM-executor control plane: generated gRPC stubs (org.elasticam.rpc.proto), authentication
 * with the application secret, and the limits both ends apply.
 */
package org.elasticam.rpc;
