from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import UserCreationForm
from django.shortcuts import render
from django.urls import reverse_lazy
from django.views.generic.edit import CreateView


@login_required
def home(request):
    return render(request, "home.html", {"verified": request.user.is_verified()})


class SignUpView(CreateView):
    """A sign-up page as Django's documentation writes one (UserCreationForm in a CreateView): a new account, then
    302 to the login page; a taken user name or a mismatched password answers 200 with the form and its errors.
    attest-harness signs up one account per simulated user, since a user's second passkey needs a second factor."""

    form_class = UserCreationForm
    success_url = reverse_lazy("login")
    template_name = "registration/signup.html"
