"""The login view as django-passkeys' docs/template-setup.md describes it ("In your login view, change the
authenticate call to include the request") and as its example project writes it: a password login, or a passkey
login when the hidden `passkeys` field carries the assertion JSON (then username and password are empty and
passkeys.backend.PasskeyModelBackend verifies the assertion against the state in the session)."""
from django.contrib.auth import authenticate, login, logout
from django.http import HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse


def login_view(request):
    context = {}
    if request.method == "POST":
        user = authenticate(request, username=request.POST["username"], password=request.POST["password"])
        if user:
            login(request, user)
            return HttpResponseRedirect(reverse("home"))
        context["invalid"] = True
    return render(request, "login.html", context)


def logout_view(request):
    logout(request)
    return HttpResponseRedirect(reverse("login"))
