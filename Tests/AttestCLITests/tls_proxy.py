"""A TLS-terminating proxy for tests: `tls_proxy.py CERT KEY BACKEND_PORT` listens on 127.0.0.1 (a free port,
printed on the first line of stdout) with CERT/KEY and relays each connection to 127.0.0.1:BACKEND_PORT in plain
HTTP. Stands in for a staging server whose certificate a private CA signed."""
import signal
import socket
import ssl
import sys
import threading


def pipe(source, destination):
    try:
        while True:
            data = source.recv(65536)
            if not data:
                break
            destination.sendall(data)
    except OSError:
        pass
    finally:
        for sock in (source, destination):
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def serve(client, backend_port):
    try:
        backend = socket.create_connection(("127.0.0.1", backend_port), timeout=30)
    except OSError:
        client.close()
        return
    threading.Thread(target=pipe, args=(client, backend), daemon=True).start()
    pipe(backend, client)


def main():
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    cert, key, backend_port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    print(listener.getsockname()[1], flush=True)
    while True:
        raw, _ = listener.accept()
        raw.settimeout(30)
        try:
            client = context.wrap_socket(raw, server_side=True)
        except (ssl.SSLError, OSError):
            raw.close()
            continue
        threading.Thread(target=serve, args=(client, backend_port), daemon=True).start()


if __name__ == "__main__":
    main()
